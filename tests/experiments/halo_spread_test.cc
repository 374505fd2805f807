// The spread of timed batches (median, minimum, maximum, count), the
// interval of a ratio of two spreads and the noise test, and the report
// line that carries them to tools/report.sh.
#include <string>
#include <vector>

#include "experiments/halo/report.h"
#include "experiments/halo/run.h"
#include "experiments/halo/spread.h"
#include "gtest/gtest.h"

namespace {

TEST(SpreadTest, OddCountTakesTheMiddleValue) {
  const std::vector<double> values{5, 1, 4, 2, 3};
  const halo::Spread spread = halo::spread_of(values);
  EXPECT_EQ(spread.median, 3);
  EXPECT_EQ(spread.min, 1);
  EXPECT_EQ(spread.max, 5);
  EXPECT_EQ(spread.batches, 5);
}

TEST(SpreadTest, EvenCountAveragesTheTwoMiddleValues) {
  const std::vector<double> values{8, 2, 6, 4};
  const halo::Spread spread = halo::spread_of(values);
  EXPECT_EQ(spread.median, 5);
  EXPECT_EQ(spread.min, 2);
  EXPECT_EQ(spread.max, 8);
  EXPECT_EQ(spread.batches, 4);
}

TEST(SpreadTest, OneValueAndNone) {
  const std::vector<double> one{7};
  const halo::Spread single = halo::spread_of(one);
  EXPECT_EQ(single.median, 7);
  EXPECT_EQ(single.min, 7);
  EXPECT_EQ(single.max, 7);
  EXPECT_EQ(single.batches, 1);
  const halo::Spread none = halo::spread_of({});
  EXPECT_EQ(none.batches, 0);
  EXPECT_EQ(none.median, 0);
}

TEST(SpreadTest, RatioIntervalHoldsEveryRatioOfTheBatches) {
  const std::vector<double> a{2, 3, 4};
  const std::vector<double> b{8, 10, 12, 9};
  const halo::Spread ratio =
      halo::ratio_of(halo::spread_of(a), halo::spread_of(b));
  EXPECT_DOUBLE_EQ(ratio.median, 3.0 / 9.5);
  EXPECT_DOUBLE_EQ(ratio.min, 2.0 / 12);
  EXPECT_DOUBLE_EQ(ratio.max, 4.0 / 8);
  EXPECT_EQ(ratio.batches, 3);
  for (double x : a) {
    for (double y : b) {
      EXPECT_GE(x / y, ratio.min);
      EXPECT_LE(x / y, ratio.max);
    }
  }
  EXPECT_EQ(halo::ratio_of(halo::spread_of(a), halo::Spread{}).batches, 0);
}

TEST(SpreadTest, OverlappingRangesAreWithinNoise) {
  const std::vector<double> fast{1.0, 1.1, 1.2};
  const std::vector<double> slow{2.0, 2.5, 3.0};
  const std::vector<double> noisy{0.5, 2.0, 2.2};
  const halo::Spread f = halo::spread_of(fast);
  const halo::Spread s = halo::spread_of(slow);
  const halo::Spread n = halo::spread_of(noisy);
  EXPECT_FALSE(halo::within_noise(f, s));
  EXPECT_FALSE(halo::within_noise(s, f));
  EXPECT_TRUE(halo::within_noise(f, n));
  EXPECT_TRUE(halo::within_noise(n, s));
  // A ratio's interval contains 1 exactly when the two overlap.
  const halo::Spread ratio = halo::ratio_of(f, n);
  EXPECT_LE(ratio.min, 1.0);
  EXPECT_GE(ratio.max, 1.0);
  EXPECT_GT(halo::ratio_of(s, f).min, 1.0);
}

TEST(ReportLineTest, CarriesTheSpreadAndTheBatches) {
  halo::Setting setting;
  setting.program = "jacobi";
  setting.rows = 8;
  setting.columns = 8;
  setting.processes = 4;
  setting.dims = {2, 2};
  setting.value_name = "residual";
  halo::Report report;
  report.implementation = "openmpi";
  report.algorithm = "-";
  report.iterations = 30;
  const std::vector<double> seconds{3e-5, 1e-5, 2e-5};
  report.seconds = halo::spread_of(seconds);
  report.correct = true;
  const std::string line = halo::report_line(setting, report);
  EXPECT_NE(line.find(" iterations=30 seconds_per_iteration=2e-05 "
                      "seconds_min=1e-05 seconds_max=3e-05 batches=3 "),
            std::string::npos)
      << line;
  EXPECT_NE(line.find(" result=correct"), std::string::npos) << line;
}

}  // namespace
