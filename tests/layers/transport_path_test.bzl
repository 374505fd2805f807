"""transport_path_test: only classic reaches the transport.

The layer rule of docs/design.md: Open MPI is reached from classic/ only. An
aspect walks the dependencies of `roots` and records every target outside
//classic that depends on the transport repository (@mpi) directly; the test
fails, naming them, when there is any. So a path from naming or stencils to
@mpi must pass through classic.
"""

TransportUsersInfo = provider(
    doc = "Targets outside //classic with a direct dependency on @mpi.",
    fields = {"offenders": "depset of (target, dependency) label strings"},
)

_TRANSPORT_REPOSITORY = "mpi"

def _inside_classic(label):
    return label.workspace_name == "" and (
        label.package == "classic" or label.package.startswith("classic/")
    )

def _transport_users_impl(target, ctx):
    deps = getattr(ctx.rule.attr, "deps", [])
    direct = []
    if not _inside_classic(target.label):
        for dep in deps:
            if dep.label.workspace_name == _TRANSPORT_REPOSITORY:
                direct.append("%s -> %s" % (target.label, dep.label))
    return [TransportUsersInfo(offenders = depset(
        direct,
        transitive = [
            dep[TransportUsersInfo].offenders
            for dep in deps
            if TransportUsersInfo in dep
        ],
    ))]

_transport_users = aspect(
    implementation = _transport_users_impl,
    attr_aspects = ["deps"],
)

def _transport_path_test_impl(ctx):
    offenders = depset(transitive = [
        root[TransportUsersInfo].offenders
        for root in ctx.attr.roots
    ]).to_list()
    lines = ["#!/usr/bin/env bash"]
    if offenders:
        lines.append("echo 'the transport (@mpi) is reached other than through classic:'")
        lines.extend(["echo '  %s'" % offender for offender in offenders])
        lines.append("exit 1")
    else:
        lines.append("echo '%d roots: every path to @mpi passes through //classic'" %
                     len(ctx.attr.roots))
    script = ctx.actions.declare_file(ctx.label.name + ".sh")
    ctx.actions.write(script, "\n".join(lines) + "\n", is_executable = True)
    return [DefaultInfo(executable = script)]

transport_path_test = rule(
    implementation = _transport_path_test_impl,
    attrs = {"roots": attr.label_list(aspects = [_transport_users])},
    test = True,
)
