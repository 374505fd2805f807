// Tests of the life and jacobi programs' command lines: defaults, every
// flag, the variant lists, and the refusals that end in the usage message.
#include <gtest/gtest.h>

#include <string_view>
#include <vector>

#include "experiments/halo/flags.h"
#include "experiments/halo/implementation.h"
#include "experiments/jacobi/options.h"
#include "experiments/life/options.h"

namespace {

using halo::Implementation;
using halo::Library;

life::ParsedOptions life_parse(std::vector<std::string_view> args) {
  return life::parse_options(args);
}
jacobi::ParsedOptions jacobi_parse(std::vector<std::string_view> args) {
  return jacobi::parse_options(args);
}

TEST(Flags, Numbers) {
  EXPECT_EQ(halo::parse_int("12", 1), 12);
  EXPECT_FALSE(halo::parse_int("0", 1));
  EXPECT_FALSE(halo::parse_int("1x", 1));
  EXPECT_FALSE(halo::parse_int("", 1));
  EXPECT_EQ(halo::parse_double("1e-9", 0.0), 1e-9);
  EXPECT_FALSE(halo::parse_double("-1", 0.0));
  EXPECT_FALSE(halo::parse_double("inf", 0.0));
  EXPECT_FALSE(halo::parse_double("1.0.0", 0.0));
  EXPECT_EQ(halo::split_list("a,,b"),
            (std::vector<std::string_view>{"a", "", "b"}));
}

TEST(LifeOptions, Defaults) {
  const auto parsed = life_parse({});
  EXPECT_TRUE(parsed.error.empty());
  EXPECT_EQ(parsed.options.n, 96);
  EXPECT_EQ(parsed.options.iterations, 100);
  EXPECT_EQ(parsed.options.cells, std::vector{Library::ortho});
  ASSERT_EQ(parsed.options.blocked.size(), 2u);
  EXPECT_EQ(halo::name(parsed.options.blocked[0]), "openmpi");
  EXPECT_EQ(halo::name(parsed.options.blocked[1]), "ortho-selected");
  EXPECT_EQ(parsed.options.borders, halo::Borders::fixed);
  EXPECT_TRUE(parsed.options.png.empty());
  EXPECT_FALSE(parsed.options.inject_error);
  EXPECT_FALSE(parsed.options.reorder);
}

TEST(LifeOptions, EveryFlag) {
  const auto parsed = life_parse(
      {"--n=40", "--iterations=7", "--variant=cells-openmpi,ortho-direct",
       "--borders=periodic", "--seed=5", "--batch=3", "--png=/tmp/b.png",
       "--inject-error", "--reorder"});
  ASSERT_TRUE(parsed.error.empty()) << parsed.error;
  EXPECT_EQ(parsed.options.n, 40);
  EXPECT_EQ(parsed.options.iterations, 7);
  EXPECT_EQ(parsed.options.cells, std::vector{Library::openmpi});
  ASSERT_EQ(parsed.options.blocked.size(), 1u);
  EXPECT_EQ(halo::name(parsed.options.blocked[0]), "ortho-direct");
  EXPECT_EQ(parsed.options.borders, halo::Borders::periodic);
  EXPECT_EQ(parsed.options.seed, 5u);
  EXPECT_EQ(parsed.options.batch, 3);
  EXPECT_EQ(parsed.options.png, "/tmp/b.png");
  EXPECT_TRUE(parsed.options.inject_error);
  EXPECT_TRUE(parsed.options.reorder);
}

TEST(LifeOptions, All) {
  const auto parsed = life_parse({"--variant=all"});
  EXPECT_EQ(parsed.options.cells.size(), 2u);
  EXPECT_EQ(parsed.options.blocked, halo::all_implementations());
}

TEST(LifeOptions, Refusals) {
  EXPECT_EQ(life_parse({"--n=0"}).error, "--n=0: must be a positive integer");
  EXPECT_EQ(life_parse({"--borders=torus"}).error,
            "--borders=torus: must be fixed or periodic");
  EXPECT_EQ(life_parse({"--variant=cells,bogus"}).error,
            "--variant: unknown variant 'bogus'");
  EXPECT_EQ(life_parse({"--bogus=1"}).error, "unknown flag --bogus");
  EXPECT_EQ(life_parse({"--verbose"}).error, "unknown flag --verbose");
  EXPECT_EQ(life_parse({"96"}).error,
            "unexpected argument '96' (flags are --name or --name=value)");
  EXPECT_TRUE(life_parse({"--help"}).help);
  EXPECT_NE(life::usage("life").find("--variant=LIST"), std::string::npos);
}

TEST(JacobiOptions, Defaults) {
  const auto parsed = jacobi_parse({});
  EXPECT_TRUE(parsed.error.empty());
  EXPECT_EQ(parsed.options.n, 96);
  EXPECT_EQ(parsed.options.iterations, 100);
  EXPECT_EQ(parsed.options.tolerance, 1e-6);
  EXPECT_EQ(parsed.options.variants, halo::all_implementations());
  EXPECT_FALSE(parsed.options.reorder);
}

TEST(JacobiOptions, EveryFlag) {
  const auto parsed =
      jacobi_parse({"--n=12", "--iterations=50", "--tolerance=0.5",
                    "--variant=openmpi,ortho-selected-persistent", "--seed=2",
                    "--batch=5", "--inject-error", "--reorder"});
  ASSERT_TRUE(parsed.error.empty()) << parsed.error;
  EXPECT_EQ(parsed.options.n, 12);
  EXPECT_EQ(parsed.options.iterations, 50);
  EXPECT_EQ(parsed.options.tolerance, 0.5);
  ASSERT_EQ(parsed.options.variants.size(), 2u);
  EXPECT_EQ(halo::name(parsed.options.variants[1]),
            "ortho-selected-persistent");
  EXPECT_EQ(parsed.options.seed, 2u);
  EXPECT_EQ(parsed.options.batch, 5);
  EXPECT_TRUE(parsed.options.inject_error);
  EXPECT_TRUE(parsed.options.reorder);
}

TEST(JacobiOptions, Refusals) {
  EXPECT_EQ(jacobi_parse({"--tolerance=-1"}).error,
            "--tolerance=-1: must be a number >= 0");
  EXPECT_EQ(jacobi_parse({"--variant=cells"}).error,
            "--variant: unknown variant 'cells'");
  EXPECT_EQ(jacobi_parse({"--png=x"}).error, "unknown flag --png");
}

}  // namespace
