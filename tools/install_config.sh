#!/usr/bin/env bash
# Writes the pkg-config file and the CMake package of an orthocomm
# installation (called by tools/install.sh):
#
#   tools/install_config.sh PREFIX MPICXX [EXTRA_LIBS]
#
# Both carry C++20, the include directory, the library and the MPI that
# MPICXX (Open MPI's compiler wrapper) names, with Open MPI's C++ bindings
# left out (OMPI_SKIP_MPICXX), as orthocomm itself is built. EXTRA_LIBS
# (e.g. "-lscotch -lscotcherr") are what liborthocomm.a needs beyond MPI:
# pkg-config's Libs.private (pkg-config --static) and the static CMake
# target's link libraries; liborthocomm.so records them itself.
set -euo pipefail

prefix="$1"
mpicxx="$2"
extra_libs="${3:-}"
# The version, from the one place it is written.
version_part() {
  sed -n "s/^#define ORTHOCOMM_VERSION_$1 \([0-9]*\)\$/\1/p" \
    "$(dirname "$0")/../classic/base/version.h"
}
version="$(version_part MAJOR).$(version_part MINOR).$(version_part PATCH)"
[[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] ||
  { echo "install_config: no version in classic/base/version.h" >&2; exit 1; }

mpi_cflags=""
for dir in $("$mpicxx" --showme:incdirs); do mpi_cflags+=" -I$dir"; done
mpi_libs=""
for dir in $("$mpicxx" --showme:libdirs); do
  mpi_libs+=" -L$dir -Wl,-rpath,$dir"
done
mpi_libs+=" -lmpi"

cat > "$prefix/lib/pkgconfig/orthocomm.pc" <<EOF
prefix=$prefix
includedir=\${prefix}/include
libdir=\${prefix}/lib

Name: orthocomm
Description: MPI collectives through one set of interfaces (classic, naming, stencils, ortho)
Version: $version
Cflags: -std=c++20 -I\${includedir} -DOMPI_SKIP_MPICXX$mpi_cflags
Libs: -L\${libdir} -Wl,-rpath,\${libdir} -lorthocomm$mpi_libs
Libs.private: $extra_libs
EOF

cat > "$prefix/lib/cmake/orthocomm/orthocommConfigVersion.cmake" <<EOF
# The version of this orthocomm installation; any request of the same major
# version and not newer is met.
set(PACKAGE_VERSION "$version")
if(PACKAGE_FIND_VERSION VERSION_GREATER PACKAGE_VERSION OR
   NOT PACKAGE_FIND_VERSION_MAJOR EQUAL "${version%%.*}")
  set(PACKAGE_VERSION_COMPATIBLE FALSE)
else()
  set(PACKAGE_VERSION_COMPATIBLE TRUE)
  if(PACKAGE_FIND_VERSION STREQUAL PACKAGE_VERSION)
    set(PACKAGE_VERSION_EXACT TRUE)
  endif()
endif()
EOF

cat > "$prefix/lib/cmake/orthocomm/orthocommConfig.cmake" <<EOF
# find_package(orthocomm) for an orthocomm installation: the imported targets
# orthocomm::orthocomm (shared) and orthocomm::orthocomm_static carry C++20,
# the include directory and MPI (CMake's FindMPI, C++ bindings skipped); the
# static one also what liborthocomm.a needs beyond MPI.
set(_orthocomm_static_libs $extra_libs)
EOF
cat >> "$prefix/lib/cmake/orthocomm/orthocommConfig.cmake" <<'EOF'
include(CMakeFindDependencyMacro)
set(MPI_CXX_SKIP_MPICXX TRUE)
find_dependency(MPI COMPONENTS CXX)

get_filename_component(_orthocomm_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.."
                       ABSOLUTE)
foreach(_orthocomm_kind IN ITEMS shared static)
  if(_orthocomm_kind STREQUAL "shared")
    set(_orthocomm_target orthocomm::orthocomm)
    set(_orthocomm_file liborthocomm.so)
  else()
    set(_orthocomm_target orthocomm::orthocomm_static)
    set(_orthocomm_file liborthocomm.a)
  endif()
  if(NOT TARGET ${_orthocomm_target})
    string(TOUPPER ${_orthocomm_kind} _orthocomm_type)
    add_library(${_orthocomm_target} ${_orthocomm_type} IMPORTED)
    set_target_properties(${_orthocomm_target} PROPERTIES
      IMPORTED_LOCATION "${_orthocomm_prefix}/lib/${_orthocomm_file}"
      INTERFACE_INCLUDE_DIRECTORIES "${_orthocomm_prefix}/include"
      INTERFACE_COMPILE_FEATURES cxx_std_20
      INTERFACE_COMPILE_DEFINITIONS OMPI_SKIP_MPICXX
      INTERFACE_LINK_LIBRARIES MPI::MPI_CXX)
    if(_orthocomm_kind STREQUAL "static")
      set_property(TARGET ${_orthocomm_target} APPEND PROPERTY
        INTERFACE_LINK_LIBRARIES ${_orthocomm_static_libs})
    endif()
  endif()
endforeach()
unset(_orthocomm_kind)
unset(_orthocomm_target)
unset(_orthocomm_file)
unset(_orthocomm_type)
unset(_orthocomm_prefix)
unset(_orthocomm_static_libs)
EOF
