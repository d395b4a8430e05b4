/* tools/prof_tables.c — the metric table and its parser, compiled into the `vcuda`
 * command too, so that `vcuda prof` checks metric names (and lists them) before the
 * program starts. The command links libvcuda.so, whose internal symbols are hidden;
 * building the one table (prof/metrics.c) and its parser (prof/report.c) in keeps a
 * single source. */
#include "prof/metrics.c"
#include "prof/report.c"
