"""mpi_test: one GoogleTest source, one test target per process count."""

load("@rules_cc//cc:defs.bzl", "cc_binary")

def mpi_test(name, srcs, deps = [], ranks = [1, 2, 4], size = "large", tags = [], env = {}, binary = None, **kwargs):
    """Builds `name`_bin once and runs it under mpirun as `name`_np<N>.

    Args:
      name: base name; targets are `name`_np1, `name`_np2, ... and a
        test_suite `name` that contains them all.
      srcs: GoogleTest sources (no main: the MPI harness provides it).
      deps: libraries under test.
      ranks: process counts to run at (oversubscribed on small machines).
      size: Bazel test size of every target.
      tags: tags of every target.
      env: environment variables of every run (e.g. ORTHO_CHECK).
      binary: the test binary of another mpi_test to run (then srcs and
        deps are ignored): the same tests under another environment.
      **kwargs: passed to the cc_binary.
    """
    if binary == None:
        binary = name + "_bin"
        cc_binary(
            name = binary,
            srcs = srcs,
            deps = deps + ["//tests/harness:mpi_gtest_main"],
            testonly = True,
            **kwargs
        )
    tests = []
    for n in ranks:
        test_name = "%s_np%d" % (name, n)
        native.sh_test(
            name = test_name,
            srcs = ["//tests/harness:mpirun_test.sh"],
            args = [str(n), "$(location @mpi//:mpirun)", "$(location :%s)" % binary],
            data = [
                ":" + binary,
                "//tests/harness:mpirun_flags.sh",
                "@mpi//:mpirun",
            ],
            size = size,
            env = env,
            tags = tags + ["mpi", "np%d" % n],
        )
        tests.append(":" + test_name)
    native.test_suite(name = name, tests = tests, tags = tags)
