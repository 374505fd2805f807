#include "classic/base/transport_settings.h"

#include <mpi.h>

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace classic {
namespace {

// The value behind `handle` (of `count` elements of `datatype`) as text.
std::string read_value(MPI_T_cvar_handle handle, MPI_Datatype datatype,
                       int count) {
  if (datatype == MPI_CHAR) {
    std::vector<char> text(static_cast<std::size_t>(count) + 1, '\0');
    if (MPI_T_cvar_read(handle, text.data()) != MPI_SUCCESS) return {};
    return text.data();
  }
  if (count != 1) return {};
  if (datatype == MPI_C_BOOL) {
    bool value = false;
    if (MPI_T_cvar_read(handle, &value) != MPI_SUCCESS) return {};
    return value ? "1" : "0";
  }
  if (datatype == MPI_INT) {
    int value = 0;
    if (MPI_T_cvar_read(handle, &value) != MPI_SUCCESS) return {};
    return std::to_string(value);
  }
  if (datatype == MPI_UNSIGNED) {
    unsigned value = 0;
    if (MPI_T_cvar_read(handle, &value) != MPI_SUCCESS) return {};
    return std::to_string(value);
  }
  if (datatype == MPI_UNSIGNED_LONG) {
    unsigned long value = 0;
    if (MPI_T_cvar_read(handle, &value) != MPI_SUCCESS) return {};
    return std::to_string(value);
  }
  if (datatype == MPI_UNSIGNED_LONG_LONG) {
    unsigned long long value = 0;
    if (MPI_T_cvar_read(handle, &value) != MPI_SUCCESS) return {};
    return std::to_string(value);
  }
  return {};
}

// Reads `name` through the tool interface, which has an initialisation of
// its own (nested, independent of MPI_Init; about 0.2 s in Open MPI 4.1).
std::string read_setting(const char* name) {
  int provided = 0;
  if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS) {
    return {};
  }
  std::string value;
  int index = 0;
  if (MPI_T_cvar_get_index(name, &index) == MPI_SUCCESS) {
    MPI_Datatype datatype = MPI_DATATYPE_NULL;
    int verbosity = 0;
    int bind = 0;
    int scope = 0;
    if (MPI_T_cvar_get_info(index, nullptr, nullptr, &verbosity, &datatype,
                            nullptr, nullptr, nullptr, &bind,
                            &scope) == MPI_SUCCESS &&
        bind == MPI_T_BIND_NO_OBJECT) {
      MPI_T_cvar_handle handle = MPI_T_CVAR_HANDLE_NULL;
      int count = 0;
      if (MPI_T_cvar_handle_alloc(index, nullptr, &handle, &count) ==
          MPI_SUCCESS) {
        value = read_value(handle, datatype, count);
        MPI_T_cvar_handle_free(&handle);
      }
    }
  }
  MPI_T_finalize();
  return value;
}

}  // namespace

std::string transport_setting(const char* name) {
  // The transport fixes its settings when it starts: each is read once per
  // process and remembered.
  static std::map<std::string, std::string, std::less<>> remembered;
  const std::string_view key(name);
  if (const auto found = remembered.find(key); found != remembered.end()) {
    return found->second;
  }
  return remembered.emplace(std::string(key), read_setting(name)).first->second;
}

}  // namespace classic
