// What the transport says of its own configuration, for the layers above
// classic that price their algorithms by it (ortho's cost model).
#ifndef ORTHOCOMM_CLASSIC_BASE_TRANSPORT_SETTINGS_H_
#define ORTHOCOMM_CLASSIC_BASE_TRANSPORT_SETTINGS_H_

#include <string>

namespace classic {

// The value of the transport's control variable `name` (for Open MPI an MCA
// parameter such as "btl"), read through the MPI tool interface: whatever
// set it counts (mpirun --mca, OMPI_MCA_<name>, a parameter file, the
// default). Text variables as they are, integer ones in decimal, boolean
// ones as "1" or "0"; empty
// where the transport has no such variable, it has another type, or the
// tool interface cannot be used. Read once per process and name (the first
// read opens the tool interface: about 0.2 s in Open MPI 4.1), then
// remembered: the transport fixes its settings when it starts. Local; not
// thread-safe.
std::string transport_setting(const char* name);

}  // namespace classic

#endif  // ORTHOCOMM_CLASSIC_BASE_TRANSPORT_SETTINGS_H_
