"""Repository rule that wraps the Open MPI found through `mpicxx --showme`.

Asking the compiler wrapper (instead of hard-coding /usr) lets the same
workspace build against an Open MPI installed elsewhere, e.g. an HPC module:
put its mpicxx first on PATH or set ORTHOCOMM_MPICXX=/path/to/mpicxx.
"""

def _showme(ctx, wrapper, what):
    result = ctx.execute([wrapper, "--showme:" + what])
    if result.return_code != 0:
        fail("`%s --showme:%s` failed: %s" % (wrapper, what, result.stderr))
    return [word for word in result.stdout.strip().split(" ") if word]

def _mpi_repository_impl(ctx):
    wrapper = ctx.os.environ.get("ORTHOCOMM_MPICXX", "mpicxx")
    path = ctx.which(wrapper) if not wrapper.startswith("/") else ctx.path(wrapper)
    if path == None or not path.exists:
        fail("cannot find the Open MPI compiler wrapper `%s`; install " % wrapper +
             "libopenmpi-dev or set ORTHOCOMM_MPICXX to the wrapper's path")

    includes = []
    for index, incdir in enumerate(_showme(ctx, path, "incdirs")):
        link = "include_%d" % index
        ctx.symlink(incdir, link)
        includes.append(link)

    linkopts = []
    for libdir in _showme(ctx, path, "libdirs"):
        linkopts += ["-L" + libdir, "-Wl,-rpath," + libdir]

    # Only the C library: orthocomm never uses Open MPI's C++ bindings.
    linkopts.append("-lmpi")

    ctx.file("WORKSPACE", 'workspace(name = "%s")\n' % ctx.name)
    ctx.file("BUILD", """\
cc_library(
    name = "mpi",
    hdrs = glob([{hdr_globs}], allow_empty = True),
    includes = {includes},
    defines = ["OMPI_SKIP_MPICXX"],
    linkopts = {linkopts},
    visibility = ["//visibility:public"],
)

exports_files(["mpirun"])
""".format(
        hdr_globs = ", ".join(['"%s/**/*.h"' % inc for inc in includes]),
        includes = repr(includes),
        linkopts = repr(linkopts),
    ))

    # The mpirun next to this mpicxx, so tests launch the matching runtime.
    mpirun = path.dirname.get_child("mpirun")
    if not mpirun.exists:
        fail("no mpirun next to %s" % path)
    ctx.symlink(mpirun, "mpirun")

mpi_repository = repository_rule(
    implementation = _mpi_repository_impl,
    environ = ["ORTHOCOMM_MPICXX", "PATH"],
    local = True,
)
