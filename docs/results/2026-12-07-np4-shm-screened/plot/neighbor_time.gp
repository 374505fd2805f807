set terminal pngcairo noenhanced font 'Sans,10' size 1440,600
set output 'docs/results/2026-12-07-np4-shm-screened/neighbor_time.png'
set multiplot layout 1,2 title "Neighbour benchmark (combining_benchmark): time per call, 2-d Moore stencil of depth 1 on a 2x2 torus\n4 processes, shared memory (btl self,vader), 2026-12-07T19:03Z; bars: fastest to slowest batch" font ',12'
set xlabel "block size per neighbour (bytes, log scale)"
set ylabel "time per call (µs, log scale)"
set logscale xy
set xrange [2:80000]
set xtics (4,40,400,4000,40000)
set yrange [9.91225 / 1.6:381.26]
label_y = 9.91225 / 1.3
set ytics (10,20,30,50,100,200,300)
set grid xtics ytics mytics
set key top left box opaque
set title "alltoall (at the bottom: selected's algorithm; p: persistent's where it differs)"
plot 'docs/results/2026-12-07-np4-shm-screened/plot/neighbor_alltoall.dat' index 0 using ($1*0.9576):2:3:4 with yerrorlines lc 1 dt 1 pt 7 ps 1.2 lw 2 title 'openmpi','docs/results/2026-12-07-np4-shm-screened/plot/neighbor_alltoall.dat' index 1 using ($1*0.9743):2:3:4 with yerrorlines lc 1 dt 2 pt 6 ps 1.2 lw 2 title 'openmpi-p','docs/results/2026-12-07-np4-shm-screened/plot/neighbor_alltoall.dat' index 2 using ($1*0.9914):2:3:4 with yerrorlines lc 2 dt 1 pt 7 ps 1.2 lw 2 title 'direct','docs/results/2026-12-07-np4-shm-screened/plot/neighbor_alltoall.dat' index 3 using ($1*1.0087):2:3:4 with yerrorlines lc 3 dt 1 pt 7 ps 1.2 lw 2 title 'combining','docs/results/2026-12-07-np4-shm-screened/plot/neighbor_alltoall.dat' index 4 using ($1*1.0263):2:3:4 with yerrorlines lc 4 dt 1 pt 7 ps 1.2 lw 2 title 'selected','docs/results/2026-12-07-np4-shm-screened/plot/neighbor_alltoall.dat' index 5 using ($1*1.0443):2:3:4 with yerrorlines lc 4 dt 2 pt 6 ps 1.2 lw 2 title 'selected-p','docs/results/2026-12-07-np4-shm-screened/plot/neighbor_alltoall_selected.dat' using 1:(label_y):3 with labels font ',9' tc lt 4 notitle
set title "allgather (at the bottom: selected's algorithm; p: persistent's where it differs)"
plot 'docs/results/2026-12-07-np4-shm-screened/plot/neighbor_allgather.dat' index 0 using ($1*0.9576):2:3:4 with yerrorlines lc 1 dt 1 pt 7 ps 1.2 lw 2 title 'openmpi','docs/results/2026-12-07-np4-shm-screened/plot/neighbor_allgather.dat' index 1 using ($1*0.9743):2:3:4 with yerrorlines lc 1 dt 2 pt 6 ps 1.2 lw 2 title 'openmpi-p','docs/results/2026-12-07-np4-shm-screened/plot/neighbor_allgather.dat' index 2 using ($1*0.9914):2:3:4 with yerrorlines lc 2 dt 1 pt 7 ps 1.2 lw 2 title 'direct','docs/results/2026-12-07-np4-shm-screened/plot/neighbor_allgather.dat' index 3 using ($1*1.0087):2:3:4 with yerrorlines lc 3 dt 1 pt 7 ps 1.2 lw 2 title 'combining','docs/results/2026-12-07-np4-shm-screened/plot/neighbor_allgather.dat' index 4 using ($1*1.0263):2:3:4 with yerrorlines lc 4 dt 1 pt 7 ps 1.2 lw 2 title 'selected','docs/results/2026-12-07-np4-shm-screened/plot/neighbor_allgather.dat' index 5 using ($1*1.0443):2:3:4 with yerrorlines lc 4 dt 2 pt 6 ps 1.2 lw 2 title 'selected-p','docs/results/2026-12-07-np4-shm-screened/plot/neighbor_allgather_selected.dat' using 1:(label_y):3 with labels font ',9' tc lt 4 notitle
unset multiplot
