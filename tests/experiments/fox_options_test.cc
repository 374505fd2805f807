// Tests of the fox program's command line: defaults, every flag, and the
// refusals that end in the usage message.
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "experiments/fox/options.h"

namespace {

using fox::Variant;

fox::ParsedOptions parse(std::vector<std::string_view> args) {
  return fox::parse_options(args);
}

TEST(ParseOptions, Defaults) {
  const fox::ParsedOptions parsed = parse({});
  EXPECT_TRUE(parsed.error.empty());
  EXPECT_FALSE(parsed.help);
  EXPECT_EQ(parsed.options.n, 240);
  EXPECT_EQ(parsed.options.repetitions, 3);
  EXPECT_EQ(parsed.options.variants,
            (std::vector{Variant::cartesian, Variant::named}));
  EXPECT_EQ(parsed.options.seed, 1u);
  EXPECT_FALSE(parsed.options.inject_error);
}

TEST(ParseOptions, EveryFlag) {
  const fox::ParsedOptions parsed =
      parse({"--n=36", "--repetitions=5", "--variant=named", "--seed=9",
             "--inject-error"});
  ASSERT_TRUE(parsed.error.empty()) << parsed.error;
  EXPECT_EQ(parsed.options.n, 36);
  EXPECT_EQ(parsed.options.repetitions, 5);
  EXPECT_EQ(parsed.options.variants, std::vector{Variant::named});
  EXPECT_EQ(parsed.options.seed, 9u);
  EXPECT_TRUE(parsed.options.inject_error);
  EXPECT_EQ(parse({"--variant=cartesian"}).options.variants,
            std::vector{Variant::cartesian});
  EXPECT_EQ(parse({"--variant=both"}).options.variants.size(), 2u);
}

TEST(ParseOptions, Help) {
  EXPECT_TRUE(parse({"--help"}).help);
  EXPECT_TRUE(parse({"-h"}).help);
}

TEST(ParseOptions, RefusesBadValuesNamingTheFlag) {
  const std::vector<std::string_view> bad{
      "--n=0",           "--n=-3",          "--n=12x",   "--n=",
      "--n=99999999999", "--repetitions=0", "--seed=-1", "--variant=graph"};
  for (const std::string_view arg : bad) {
    const fox::ParsedOptions parsed = parse({arg});
    EXPECT_NE(parsed.error.find(std::string(arg)), std::string::npos)
        << arg << " gave '" << parsed.error << "'";
  }
}

TEST(ParseOptions, RefusesUnknownFlagsAndArguments) {
  EXPECT_NE(parse({"--size=4"}).error.find("unknown flag --size"),
            std::string::npos);
  EXPECT_NE(parse({"36"}).error.find("unexpected argument '36'"),
            std::string::npos);
  EXPECT_NE(parse({"--n"}).error.find("unexpected argument '--n'"),
            std::string::npos);
}

TEST(Usage, NamesProgramAndFlags) {
  const std::string text = fox::usage("fox");
  for (const char* part : {"usage: mpirun -np P fox", "--n=N", "--repetitions",
                           "--variant", "--seed", "--inject-error"}) {
    EXPECT_NE(text.find(part), std::string::npos) << part;
  }
}

}  // namespace
