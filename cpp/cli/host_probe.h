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

}  // namespace glass::cli
