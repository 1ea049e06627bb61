#pragma once
// What the host gives two threads of this process right now, for benchmarks
// that share work between threads. On a virtual machine the host may place
// two vCPUs near each other (sharing a cache) or far apart, and move them
// every few seconds; a thread speed-up means little without saying which
// (docs/threads.md, "Measuring on a shared host").

namespace glass::cli {

// Nanoseconds for one cache line to go to another thread and back (the best
// of a few runs of many bounces), or 0 when a second thread cannot start.
double cache_line_round_trip_ns();

// Microseconds for two threads to write 3 MB, each its own half, (a) when
// each wrote its half last and (b) when both had just read all of it (so
// every line sat in both cores' caches): what a tensor costs to write when
// its memory last held one that both threads read. Far-apart vCPUs make (b)
// several times (a) (docs/threads.md, "Eighteenth session"). Best of a few
// runs each; {0, 0} when a second thread cannot start.
struct SharedWrite {
  double own_us = 0;
  double shared_us = 0;
};
SharedWrite shared_write_us();

}  // namespace glass::cli
