// A vector of trivially copyable values that keeps its first N in place:
// the executor's per-round requests and statuses, which a blocking
// neighbourhood collective would otherwise allocate on every call.
// Internal to classic.
#ifndef ORTHOCOMM_CLASSIC_EXEC_INTERNAL_SMALL_VECTOR_H_
#define ORTHOCOMM_CLASSIC_EXEC_INTERNAL_SMALL_VECTOR_H_

#include <array>
#include <cstddef>
#include <span>
#include <type_traits>
#include <vector>

namespace classic::internal {

template <typename T, std::size_t N>
class SmallVector {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  SmallVector() = default;
  // Copies would leave data() pointing into the source.
  SmallVector(const SmallVector&) = delete;
  SmallVector& operator=(const SmallVector&) = delete;

  // Room for `n` values; values kept only up to size() (none: resize
  // discards them).
  void resize(std::size_t n) {
    if (n > N) {
      heap_.resize(n);
      data_ = heap_.data();
    } else {
      data_ = local_.data();
    }
    size_ = n;
  }
  void clear() { size_ = 0; }
  // Keeps the first `n` values (n <= size()).
  void truncate(std::size_t n) { size_ = n; }
  // Grows by one; past N, moves to the heap (keeping the values).
  void push_back(const T& value) {
    if (data_ == local_.data() && size_ < N) {
      local_[size_++] = value;
      return;
    }
    grow(value);
  }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  operator std::span<T>() { return {data_, size_}; }
  operator std::span<const T>() const { return {data_, size_}; }

 private:
  void grow(const T& value) {
    if (data_ == local_.data()) heap_.assign(local_.begin(), local_.end());
    heap_.resize(size_);
    heap_.push_back(value);
    data_ = heap_.data();
    ++size_;
  }

  // Left uninitialised: values exist only below size_.
  std::array<T, N> local_;
  std::vector<T> heap_;
  T* data_ = local_.data();
  std::size_t size_ = 0;
};

}  // namespace classic::internal

#endif  // ORTHOCOMM_CLASSIC_EXEC_INTERNAL_SMALL_VECTOR_H_
