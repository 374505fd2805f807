# Shared by the awk programs that read the neighbour benchmark's CSV
# (tools/report.sh's table, neighbor_table.awk, and tools/report/plots.sh's
# data, neighbor_plot_data.awk).

# The median of the values in list (space-separated).
function median(list,   count, value, i, j, swap) {
  count = split(list, value, " ")
  for (i = 2; i <= count; ++i)
    for (j = i; j > 1 && value[j - 1] + 0 > value[j] + 0; --j) {
      swap = value[j]; value[j] = value[j - 1]; value[j - 1] = swap
    }
  return count % 2 ? value[(count + 1) / 2] : (value[count / 2] + value[count / 2 + 1]) / 2
}

# The series the neighbour table and the neighbour plot show, in order:
# fills csv_name[i] (the CSV's variant) and label[i] (the table's column
# and the plot's legend) and returns their number. The table and the plot
# both read this one list, so that they show the same series
# (tools/checks/ratio_convention.sh checks it); the hand-posted floors
# (raw*) are tools/floor.sh's, not theirs.
function neighbor_series(csv_name, label,   count) {
  count = split("openmpi openmpi_persistent ortho_direct ortho_combining ortho_selected ortho_selected_persistent",
                csv_name, " ")
  split("openmpi openmpi-p direct combining selected selected-p", label, " ")
  return count
}
