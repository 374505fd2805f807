"""Repository rule for a library installed on the machine, found by pkg-config.

The include directory is, in order: the environment variable `env` (e.g.
ORTHOCOMM_EIGEN_INCLUDE=/opt/eigen/include/eigen3), pkg-config's include
directory of `module` (its -I flags, or its includedir variable), then
`default`. Each of `subdirs` is linked into the repository's root, where
`build_file` finds it (its cc_library says `includes = ["."]`).

An `optional` library may be missing: the repository then holds
`missing_build_file` instead. Either way, where `found_header` is named,
the repository writes that header, defining `found_macro` to 1 (found) or
0 (missing), so that one source file can adapt without any flag on its
dependents. An override variable naming a directory without the probe
counts as missing (the way to build without an optional library).
"""

def _pkg_config_dirs(ctx, module):
    pkg_config = ctx.which("pkg-config")
    if pkg_config == None:
        return []
    result = ctx.execute([pkg_config, "--cflags-only-I", module])
    if result.return_code == 0:
        dirs = [word[2:] for word in result.stdout.strip().split(" ") if word.startswith("-I")]
        if dirs:
            return dirs
    result = ctx.execute([pkg_config, "--variable=includedir", module])
    if result.return_code == 0 and result.stdout.strip():
        return [result.stdout.strip()]
    return []

def _system_headers_impl(ctx):
    override = ctx.os.environ.get(ctx.attr.env, "")
    candidates = [override] if override else _pkg_config_dirs(ctx, ctx.attr.module) + [ctx.attr.default]
    found = None
    for candidate in candidates:
        if ctx.path(candidate + "/" + ctx.attr.probe).exists:
            found = candidate
            break
    if found == None and ctx.attr.optional:
        _write_found_header(ctx, False)
        ctx.file("WORKSPACE", 'workspace(name = "%s")\n' % ctx.name)
        ctx.symlink(ctx.attr.missing_build_file, "BUILD")
        return
    if found == None:
        fail(("cannot find %s (looked for %s in %s); install it, or set %s " +
              "to the directory that holds %s") % (
            ctx.attr.module,
            ctx.attr.probe,
            ", ".join(candidates),
            ctx.attr.env,
            ctx.attr.probe,
        ))
    for subdir in ctx.attr.subdirs:
        if ctx.path(found).get_child(subdir).exists:
            ctx.symlink(ctx.path(found).get_child(subdir), subdir)
    _write_found_header(ctx, True)
    ctx.file("WORKSPACE", 'workspace(name = "%s")\n' % ctx.name)
    ctx.symlink(ctx.attr.build_file, "BUILD")

def _write_found_header(ctx, found):
    if not ctx.attr.found_header:
        return
    ctx.file(ctx.attr.found_header, "\n".join([
        "// Written by system_headers.bzl: whether %s was found." % ctx.attr.module,
        "#define %s %d" % (ctx.attr.found_macro, 1 if found else 0),
        "",
    ]))

system_headers = repository_rule(
    implementation = _system_headers_impl,
    attrs = {
        "module": attr.string(mandatory = True, doc = "pkg-config module"),
        "env": attr.string(mandatory = True, doc = "override variable"),
        "default": attr.string(default = "/usr/include"),
        "probe": attr.string(mandatory = True, doc = "a header that must exist"),
        "subdirs": attr.string_list(mandatory = True),
        "build_file": attr.label(mandatory = True, allow_single_file = True),
        "optional": attr.bool(default = False),
        "missing_build_file": attr.label(allow_single_file = True),
        "found_header": attr.string(doc = "a header saying whether it was found"),
        "found_macro": attr.string(doc = "the macro that header defines"),
    },
    environ = [
        "PATH",
        "PKG_CONFIG_PATH",
        "ORTHOCOMM_BENCHMARK_INCLUDE",
        "ORTHOCOMM_EIGEN_INCLUDE",
        "ORTHOCOMM_GTEST_INCLUDE",
        "ORTHOCOMM_METIS_INCLUDE",
        "ORTHOCOMM_SCOTCH_INCLUDE",
    ],
    local = True,
)

def scotch_repository(name = "scotch"):
    """Scotch (optional), as orthocomm's ortho layer depends on it: @scotch.

    A workspace that uses orthocomm calls this too (examples/bazel).
    """
    system_headers(
        name = name,
        build_file = Label("//third_party/system:scotch.BUILD"),
        default = "/usr/include/scotch",
        env = "ORTHOCOMM_SCOTCH_INCLUDE",
        found_header = "have_scotch.h",
        found_macro = "ORTHOCOMM_HAVE_SCOTCH",
        missing_build_file = Label("//third_party/system:scotch_missing.BUILD"),
        module = "scotch",
        optional = True,
        probe = "scotch.h",
        subdirs = ["scotch.h"],
    )
