# The median of the values in list (space-separated); for the awk programs
# of tools/report.sh that read the neighbour benchmark's CSV.
function median(list,   count, value, i, j, swap) {
  count = split(list, value, " ")
  for (i = 2; i <= count; ++i)
    for (j = i; j > 1 && value[j - 1] + 0 > value[j] + 0; --j) {
      swap = value[j]; value[j] = value[j - 1]; value[j - 1] = swap
    }
  return count % 2 ? value[(count + 1) / 2] : (value[count / 2] + value[count / 2 + 1]) / 2
}
