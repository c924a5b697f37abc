package main

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
)

// Soft memory limit. Go's collector lets the heap grow to twice what is
// live; on a 1 GB Pi a burst of photo decodes could then push the process
// into swap. Unless the operator sets GOMEMLIMIT, the server sets a soft
// limit from the machine: a quarter of the memory it may use (the cgroup
// limit in a container, otherwise MemTotal), at least 64 MiB and at most
// 192 MiB. The request budgets (photos/budget.go) keep what is live well
// below that, so the limit makes the collector return memory early without
// ever starving it. GOMEMLIMIT=off (or any Go value such as 512MiB)
// overrides it.
const (
	minSoftLimit = 64 << 20
	maxSoftLimit = 192 << 20
)

// softMemoryLimit is the limit for a machine whose usable memory is total
// bytes (0 when unknown).
func softMemoryLimit(total uint64) int64 {
	if total == 0 {
		return maxSoftLimit
	}
	return min(max(int64(total/4), minSoftLimit), maxSoftLimit)
}

// machineMemory is the memory this process may use: a cgroup v2 or v1
// limit when one is set, otherwise MemTotal; 0 when none can be read.
func machineMemory() uint64 {
	total := uint64(0)
	if data, err := os.ReadFile("/proc/meminfo"); err == nil {
		sc := bufio.NewScanner(bytes.NewReader(data))
		for sc.Scan() {
			if f := strings.Fields(sc.Text()); len(f) >= 2 && f[0] == "MemTotal:" {
				if kb, err := strconv.ParseUint(f[1], 10, 64); err == nil {
					total = kb << 10
				}
			}
		}
	}
	for _, p := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		if n, err := strconv.ParseUint(strings.TrimSpace(string(data)), 10, 64); err == nil && n > 0 && (total == 0 || n < total) {
			total = n
		}
	}
	return total
}

// applyMemoryLimit sets the default soft limit unless GOMEMLIMIT is set
// (the runtime has then applied it already) and says what is in force.
func applyMemoryLimit(getenv func(string) string) string {
	if v := getenv("GOMEMLIMIT"); v != "" {
		return "GOMEMLIMIT=" + v + " (operator)"
	}
	limit := softMemoryLimit(machineMemory())
	debug.SetMemoryLimit(limit)
	return fmt.Sprintf("%d MiB (default: a quarter of this machine's memory, at most 192 MiB; set GOMEMLIMIT to change)", limit>>20)
}

// gcPercentUnderLimit is the collector's growth target while a memory
// limit is in force. The default, 100, collects every time as much has been
// allocated as is live, and marking the engine's index (about 20 MB) then
// took a seventh of an analysis's time; at 400 the heap may grow to five
// times what is live, and the soft limit still makes the collector run
// sooner when memory is short.
const gcPercentUnderLimit = 400

// applyGCPercent raises the collector's growth target under a memory limit
// unless the operator set GOGC; it says what is in force.
func applyGCPercent(getenv func(string) string) string {
	if v := getenv("GOGC"); v != "" {
		return "GOGC=" + v + " (operator)"
	}
	if debug.SetMemoryLimit(-1) == math.MaxInt64 {
		return "100 (no memory limit)"
	}
	debug.SetGCPercent(gcPercentUnderLimit)
	return fmt.Sprintf("%d (under the memory limit; set GOGC to change)", gcPercentUnderLimit)
}
