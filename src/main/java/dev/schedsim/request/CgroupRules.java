package dev.schedsim.request;

import dev.schedsim.engine.spec.CgroupSpec;
import dev.schedsim.http.Violations;
import dev.schedsim.request.SimulationRequest.CgroupRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The cgroup v2 rules of one {@code cgroups[i]} entry: path syntax, {@code cpu.max} text
 * ({@code "QUOTA PERIOD"}, {@code "max PERIOD"}, {@code "max"}), burst and weight, with the limits of
 * {@code tg_set_cfs_bandwidth()} / {@code cpu_max_write()}.
 */
public final class CgroupRules {
    private static final Pattern SEGMENT = Pattern.compile("[A-Za-z0-9._-]+");

    private CgroupRules() {
    }

    /** Levels below the root a path may have. */
    static final int MAX_DEPTH = 32;
    /** Characters of a whole path: the kernel's PATH_MAX. */
    static final int MAX_PATH_CHARS = 4096;
    /** Characters of one segment: the kernel's NAME_MAX. */
    static final int MAX_SEGMENT_CHARS = 255;

    /** The entry as a spec, or null after adding its violations. */
    public static CgroupSpec parse(CgroupRequest c, String p, Violations v) {
        int before = v.size();
        String path = c.path();
        checkPath(path, p, v);
        long[] quotaPeriod = cpuMax(c.cpuMax(), "/".equals(path), p, v);
        long quota = quotaPeriod[0];
        long burst = c.cpuMaxBurst() == null ? 0 : c.cpuMaxBurst();
        if (burst < 0) {
            v.add(p + ".cpuMaxBurst", "must be >= 0");
        } else if (quota != -1 && burst > quota) {
            v.add(p + ".cpuMaxBurst", "must be <= the quota (" + quota + " µs)");
        } else if ("/".equals(path) && burst > 0) {
            v.add(p + ".cpuMaxBurst", "the root cgroup / cannot have a burst");
        }
        int weight = c.cpuWeight() == null ? 100 : c.cpuWeight();
        if (weight < 1 || weight > 10_000) {
            v.add(p + ".cpuWeight", "must be in 1..10000");
        }
        if (v.size() > before) {
            return null;
        }
        try {
            return new CgroupSpec(path, quota, quotaPeriod[1], burst, weight);
        } catch (IllegalArgumentException e) {
            v.add(p, e.getMessage());
            return null;
        }
    }

    /** The path's syntax and size: absolute, named segments, within PATH_MAX, NAME_MAX and {@link #MAX_DEPTH}. */
    private static void checkPath(String path, String p, Violations v) {
        if (path == null) {
            v.add(p + ".path", "required, e.g. \"/a\"");
        } else if (!path.startsWith("/")) {
            v.add(p + ".path", "must start with /");
        } else if (path.length() > MAX_PATH_CHARS) {
            // Checked first: a path's ancestors are built from it, so its cost grows with length x depth.
            v.add(p + ".path", "at most " + MAX_PATH_CHARS + " characters (PATH_MAX), got " + path.length());
        } else if (!"/".equals(path)) {
            String[] segments = path.substring(1).split("/", -1);
            if (segments.length > MAX_DEPTH) {
                v.add(p + ".path", "at most " + MAX_DEPTH + " levels below /, got " + segments.length
                        + " (real hierarchies are a few levels deep: kubepods/burstable/pod/container is 4)");
                return;
            }
            for (String s : segments) {
                String wrong = segmentProblem(s);
                if (wrong != null) {
                    v.add(p + ".path", wrong);
                    return;
                }
            }
        }
    }

    /** What is wrong with one path segment, or null. */
    private static String segmentProblem(String s) {
        if (s.isEmpty()) {
            return "empty path segment (\"//\" or a trailing /)";
        }
        if (".".equals(s) || "..".equals(s)) {
            return "segment '" + s + "' not allowed: a path must name its parents literally "
                    + "(a '..' could make a group its own ancestor)";
        }
        if (s.length() > MAX_SEGMENT_CHARS) {
            return "a segment has at most " + MAX_SEGMENT_CHARS + " characters (NAME_MAX), got " + s.length();
        }
        if (!SEGMENT.matcher(s).matches()) {
            return "segment '" + s + "' must match [A-Za-z0-9._-]+";
        }
        return null;
    }

    /**
     * {@code cpu.max} as {@code {quota, period}} (quota -1 = max), adding its violations; {@link #quotaOf} and
     * {@link #periodOf} read a value that passed these checks.
     */
    private static long[] cpuMax(String cpuMax, boolean root, String p, Violations v) {
        long quota = -1;
        long period = CgroupSpec.DEFAULT_PERIOD_US;
        if (cpuMax == null) {
            return new long[] {quota, period};
        }
        String[] t = cpuMax.trim().split("\\s+");
        String syntax = "must be \"QUOTA PERIOD\", \"QUOTA\", \"max PERIOD\" or \"max\", in µs (e.g. \"50000 100000\": half"
                + " a CPU)";
        if (t.length == 1 && "max".equals(t[0])) {
            quota = -1;
        } else if (t[0].startsWith("-") || t[0].startsWith("+")) {
            // cpu_max_write() reads the quota with kstrtou64(): a sign is -EINVAL, not "unlimited".
            v.add(p + ".cpuMax", "quota must be a number of µs without a sign, or max");
        } else if (t.length <= 2) {
            try {
                // One number is a quota with the period left as it is (cpu_max_write(): "$MAX [$PERIOD]"),
                // here the default 100000 µs.
                quota = "max".equals(t[0]) ? -1 : Long.parseLong(t[0]);
                period = t.length == 2 ? Long.parseLong(t[1]) : period;
                if (quota != -1 && quota < CgroupSpec.MIN_QUOTA_PERIOD_US) {
                    v.add(p + ".cpuMax", "quota must be >= 1000 µs (1 ms)");
                } else if (quota > CgroupSpec.MAX_BW_US) {
                    v.add(p + ".cpuMax", "quota must be <= " + CgroupSpec.MAX_BW_US + " µs");
                }
                if (period < CgroupSpec.MIN_QUOTA_PERIOD_US || period > CgroupSpec.MAX_PERIOD_US) {
                    v.add(p + ".cpuMax", "period must be in 1000..1000000 µs (1 ms..1 s)");
                }
            } catch (NumberFormatException e) {
                v.add(p + ".cpuMax", syntax);
            }
        } else {
            v.add(p + ".cpuMax", syntax);
        }
        if (root && quota != -1) {
            v.add(p + ".cpuMax", "the root cgroup / cannot have a limit");
        }
        return new long[] {quota, period};
    }

    /** "/a/b" → ["/", "/a", "/a/b"]. */
    public static List<String> lineage(String path) {
        List<String> out = new ArrayList<>();
        out.add("/");
        if ("/".equals(path)) {
            return out;
        }
        int i = 0;
        while ((i = path.indexOf('/', i + 1)) > 0) {
            out.add(path.substring(0, i));
        }
        out.add(path);
        return out;
    }

    public static int depth(String path) {
        return "/".equals(path) ? 0 : (int) path.chars().filter(ch -> ch == '/').count();
    }

    /** The quota of a cpuMax that passed {@link CgroupRules}' checks, µs; -1 for max (or none, or unreadable). */
    public static long quotaOf(String cpuMax) {
        String[] t = cpuMax == null ? new String[] {"max"} : cpuMax.trim().split("\\s+");
        return t[0].matches("[0-9]{1,18}") ? Long.parseLong(t[0]) : -1;
    }

    /** The period of a cpuMax, µs: its second number, else the kernel's default (a lone quota keeps it). */
    public static long periodOf(String cpuMax) {
        String[] t = cpuMax == null ? new String[0] : cpuMax.trim().split("\\s+");
        return t.length == 2 && t[1].matches("[0-9]{1,7}") ? Long.parseLong(t[1]) : CgroupSpec.DEFAULT_PERIOD_US;
    }
}
