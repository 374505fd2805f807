// The version of orthocomm a program is built against, for compile-time
// tests (#if ORTHOCOMM_VERSION_MAJOR > 0 || ORTHOCOMM_VERSION_MINOR >= 2).
// The one place the version is written: tools/install_config.sh reads it
// into orthocomm.pc and the CMake package, tools/install.sh into the
// shared library's soname (liborthocomm.so.MAJOR.MINOR while MAJOR is 0).
#ifndef ORTHOCOMM_CLASSIC_BASE_VERSION_H_
#define ORTHOCOMM_CLASSIC_BASE_VERSION_H_

#define ORTHOCOMM_VERSION_MAJOR 0
#define ORTHOCOMM_VERSION_MINOR 2
#define ORTHOCOMM_VERSION_PATCH 0

#endif  // ORTHOCOMM_CLASSIC_BASE_VERSION_H_
