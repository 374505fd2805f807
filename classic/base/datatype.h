// classic::datatype_of<T>(): the transport datatype of a C++ element type,
// so that typed buffers need no MPI_Datatype argument; and what a typed
// buffer is (SendBuffer, RecvBuffer): any contiguous range of such elements,
// std::vector, std::array, std::span or a C array.
#ifndef ORTHOCOMM_CLASSIC_BASE_DATATYPE_H_
#define ORTHOCOMM_CLASSIC_BASE_DATATYPE_H_

#include <mpi.h>

#include <complex>
#include <concepts>
#include <cstddef>
#include <ranges>
#include <span>
#include <type_traits>

namespace classic {
namespace internal {

// One specialisation per supported type; the primary template has no
// `get`, so unsupported types fail the Transmittable concept below.
template <typename T>
struct Of {};

#define ORTHOCOMM_DATATYPE_OF(type, mpi_datatype)      \
  template <>                                          \
  struct Of<type> {                                    \
    static MPI_Datatype get() { return mpi_datatype; } \
  }

ORTHOCOMM_DATATYPE_OF(bool, MPI_CXX_BOOL);
ORTHOCOMM_DATATYPE_OF(char, MPI_CHAR);
ORTHOCOMM_DATATYPE_OF(signed char, MPI_SIGNED_CHAR);
ORTHOCOMM_DATATYPE_OF(unsigned char, MPI_UNSIGNED_CHAR);
ORTHOCOMM_DATATYPE_OF(wchar_t, MPI_WCHAR);
// MPI has no character types of fixed width; their representations are
// the unsigned integers of the same width.
ORTHOCOMM_DATATYPE_OF(char8_t, MPI_UINT8_T);
ORTHOCOMM_DATATYPE_OF(char16_t, MPI_UINT16_T);
ORTHOCOMM_DATATYPE_OF(char32_t, MPI_UINT32_T);
ORTHOCOMM_DATATYPE_OF(short, MPI_SHORT);
ORTHOCOMM_DATATYPE_OF(unsigned short, MPI_UNSIGNED_SHORT);
ORTHOCOMM_DATATYPE_OF(int, MPI_INT);
ORTHOCOMM_DATATYPE_OF(unsigned, MPI_UNSIGNED);
ORTHOCOMM_DATATYPE_OF(long, MPI_LONG);
ORTHOCOMM_DATATYPE_OF(unsigned long, MPI_UNSIGNED_LONG);
ORTHOCOMM_DATATYPE_OF(long long, MPI_LONG_LONG);
ORTHOCOMM_DATATYPE_OF(unsigned long long, MPI_UNSIGNED_LONG_LONG);
ORTHOCOMM_DATATYPE_OF(float, MPI_FLOAT);
ORTHOCOMM_DATATYPE_OF(double, MPI_DOUBLE);
ORTHOCOMM_DATATYPE_OF(long double, MPI_LONG_DOUBLE);
ORTHOCOMM_DATATYPE_OF(std::complex<float>, MPI_CXX_FLOAT_COMPLEX);
ORTHOCOMM_DATATYPE_OF(std::complex<double>, MPI_CXX_DOUBLE_COMPLEX);
ORTHOCOMM_DATATYPE_OF(std::complex<long double>, MPI_CXX_LONG_DOUBLE_COMPLEX);
ORTHOCOMM_DATATYPE_OF(std::byte, MPI_BYTE);

#undef ORTHOCOMM_DATATYPE_OF

}  // namespace internal

// Element types with a predefined transport datatype: the arithmetic types,
// std::complex of the floating types and std::byte (const or not). Structs
// and other types go through the raw (void*, count, MPI_Datatype) overloads
// with a derived datatype.
template <typename T>
concept Transmittable = requires {
  { internal::Of<std::remove_cv_t<T>>::get() } -> std::same_as<MPI_Datatype>;
};

template <Transmittable T>
MPI_Datatype datatype_of() {
  return internal::Of<std::remove_cv_t<T>>::get();
}

// A receive buffer's element: transmittable and not const.
template <typename T>
concept Writable = Transmittable<T> && !std::is_const_v<T>;

// The element type of a typed buffer B, const where B's elements are.
template <typename B>
using BufferElement =
    std::remove_reference_t<std::ranges::range_reference_t<B>>;

// A typed send buffer: a sized range of transmittable elements. It must
// also be contiguous, and outlive the call: a variable or a view such as
// std::span, not a temporary container. Both are checked where the call
// takes the buffer (internal::buffer_span), so that a wrong range gets one
// line saying what is wrong instead of a list of overloads that did not
// match.
template <typename B>
concept SendBuffer =
    std::ranges::sized_range<B> && Transmittable<BufferElement<B>>;
// A typed receive buffer: the same with elements a call may write.
template <typename B>
concept RecvBuffer = SendBuffer<B> && Writable<BufferElement<B>>;

namespace internal {

// The span a call works on of the buffer it took as `B&&` (B as deduced).
template <SendBuffer B>
std::span<BufferElement<B>> buffer_span(std::remove_reference_t<B>& buffer) {
  static_assert(std::ranges::contiguous_range<B>,
                "orthocomm: a typed buffer must be contiguous (std::vector, "
                "std::array, std::span, a C array); copy other ranges into a "
                "std::vector");
  static_assert(std::ranges::borrowed_range<B>,
                "orthocomm: a typed buffer must outlive the call; pass a "
                "variable or a std::span, not a temporary container");
  if constexpr (std::ranges::contiguous_range<B>) {
    return {std::ranges::data(buffer), std::ranges::size(buffer)};
  } else {
    return {};
  }
}

// A send and a receive buffer of the same element type.
template <typename S, typename R>
concept SameElements = std::same_as<std::remove_const_t<BufferElement<S>>,
                                    std::remove_const_t<BufferElement<R>>>;

}  // namespace internal

}  // namespace classic

#endif  // ORTHOCOMM_CLASSIC_BASE_DATATYPE_H_
