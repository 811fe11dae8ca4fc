package device

import (
	"bufio"
	"errors"
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// Note [Memory limit]
//
// A host allocation that the machine cannot hold does not fail in Go: the
// runtime throws "out of memory" and the process dies, with no recover
// possible, or the kernel's OOM killer ends it later. A tensor of 2^32×2^32
// float32s asked for by mistake must not do that, so the host allocator
// refuses, with an error wrapping [ErrMemoryLimit], any single allocation
// larger than a limit: by default the machine's memory (the smallest of
// MemTotal in /proc/meminfo, the cgroup's memory limit and the Go runtime's
// own GOMEMLIMIT, where set; defaultMemoryLimit where none can be read), and
// whatever [SetMemoryLimit] sets. It bounds one allocation, not the sum of
// all live ones: an allocation under the limit may still exhaust a machine
// whose memory is in use — only the sizes that no run could hold are
// caught. The limit also keeps every size the allocator rounds well inside
// an int.

// ErrMemoryLimit is wrapped by the error of a host allocation larger than
// [MemoryLimit]: errors.Is(err, device.ErrMemoryLimit) tells it apart.
var ErrMemoryLimit = errors.New("can't allocate memory")

// defaultMemoryLimit is the limit where the machine's memory cannot be
// read: 1 TiB, or what an int holds on a 32-bit platform.
const defaultMemoryLimit = min(1<<40, maxMemoryLimit)

// maxMemoryLimit caps any limit so that rounding a size up stays an int.
const maxMemoryLimit = math.MaxInt - 1<<20

var (
	memoryLimit     atomic.Int64 // 0 until set or first read
	machineOnce     sync.Once
	machineMemLimit int
)

// MemoryLimit returns the largest host allocation allowed, in bytes (Note
// [Memory limit]): the value last given to [SetMemoryLimit], else the
// machine's memory.
func MemoryLimit() int {
	if n := memoryLimit.Load(); n > 0 {
		return int(n)
	}
	return machineMemory()
}

// SetMemoryLimit sets the largest host allocation allowed, in bytes, and
// returns the previous limit; nbytes ≤ 0 restores the default, the
// machine's memory (Note [Memory limit]). Allocations already made are
// not affected. It is safe for concurrent use.
func SetMemoryLimit(nbytes int) (previous int) {
	old := memoryLimit.Swap(int64(min(max(nbytes, 0), maxMemoryLimit)))
	if old <= 0 {
		return machineMemory()
	}
	return int(old)
}

// machineMemory returns the default limit, read once.
func machineMemory() int {
	machineOnce.Do(func() {
		n := 0
		if kb, ok := meminfoTotal("/proc/meminfo"); ok {
			n = kb
		}
		for _, f := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
			if c, ok := readBytes(f); ok && c > 0 && (n == 0 || c < n) {
				n = c
			}
		}
		if g := debug.SetMemoryLimit(-1); g > 0 && g < math.MaxInt64 && (n == 0 || int(g) < n) {
			n = int(g)
		}
		if n <= 0 {
			n = defaultMemoryLimit
		}
		machineMemLimit = min(n, maxMemoryLimit)
	})
	return machineMemLimit
}

// meminfoTotal returns MemTotal of a /proc/meminfo file, in bytes.
func meminfoTotal(path string) (int, bool) {
	f, err := os.Open(path)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:")
		if !ok {
			continue
		}
		fields := strings.Fields(rest)
		if len(fields) != 2 || fields[1] != "kB" {
			return 0, false
		}
		kb, err := strconv.ParseInt(fields[0], 10, 64)
		if err != nil || kb <= 0 || kb > math.MaxInt/1024 {
			return 0, false
		}
		return int(kb) * 1024, true
	}
	return 0, false
}

// readBytes reads a cgroup memory limit: a number of bytes ("max", or an
// unreadable file, is no limit).
func readBytes(path string) (int, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if err != nil || n <= 0 {
		return 0, false
	}
	return int(n), true
}
