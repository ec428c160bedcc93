"""What the load scripts (restv2-load.py, slow-clients.py, soak-login.py) read of the server's process from /proc, and
the percentiles they print. Linux only; standard library only."""
import os


def cpu_seconds(pid):
    """The process's user+system time (/proc/PID/stat fields 14 and 15, in clock ticks)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid):
    """The process's resident set (VmRSS), in MB."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def descriptors(pid):
    """The process's open descriptors (a server's: its accepted connections, plus a few dozen of its own)."""
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return 0


def pct(values, p):
    """The p-quantile of durations in seconds, in milliseconds (0 for none)."""
    if not values:
        return 0.0
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p))] * 1000
