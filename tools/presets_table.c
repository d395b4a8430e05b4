/* tools/presets_table.c — the device presets, compiled into the `vcuda` command too.
 *
 * The command links libvcuda.so, which exports the CUDA API only (its internal symbols are
 * hidden), yet it needs the preset names to check `--device` and to list every device.
 * Building the one table (gpu/presets.c) into the command as well keeps a single source. */
#include "gpu/presets.c"
