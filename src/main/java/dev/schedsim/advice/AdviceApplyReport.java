package dev.schedsim.advice;

import dev.schedsim.reports.Svg;
import java.util.ArrayList;
import java.util.List;

/**
 * The report's "What to apply": the answer as the commands and files a user applies ({@link AdviceApply}), so that
 * the report read on its own (or shown by /advisor) ends in the change to make, not only in a cpu.max.
 */
final class AdviceApplyReport {
    /** One thing to apply: a line saying what, and the text (a command or a file's lines) or a note. */
    private record Item(String what, String text, boolean code) {
    }

    private AdviceApplyReport() {
    }

    private static List<Item> items(AdviceAnswer a) {
        List<Item> out = new ArrayList<>();
        if (a.removeLimit() != null) {
            out.add(new Item("Remove the limit", a.removeLimit().why() + " " + a.removeLimit().cost(), false));
        }
        AdviceApply.Apply p = a.apply();
        if (p == null) {
            return out;
        }
        AdviceApply.KubernetesPatch k = p.kubernetes();
        if (k != null) {
            out.add(new Item("The patch for container " + k.container() + " of " + k.kind() + " "
                    + (k.namespace() == null ? "" : k.namespace() + "/") + k.name() + ":", k.kubectl(), true));
            out.add(new Item("In a Helm chart's values:", k.helmValues(), true));
            for (String n : k.notes() == null ? List.<String>of() : k.notes()) {
                out.add(new Item("Note", n, false));
            }
        }
        out.add(new Item("In the cgroup (v2):", "cpu.max " + p.cpuMax()
                + (p.cpuMaxBurst() > 0 ? "\ncpu.max.burst " + p.cpuMaxBurst() : ""), true));
        out.add(new Item("cgroup v1:", p.cgroupV1(), true));
        if (p.burst() != null) {
            out.add(new Item("The burst", p.burst(), false));
        }
        return out;
    }

    static String markdown(AdviceAnswer a) {
        StringBuilder b = new StringBuilder();
        for (Item i : items(a)) {
            b.append(i.code() ? i.what() + "\n\n```\n" + i.text() + "\n```\n\n" : i.what() + ": " + i.text() + "\n\n");
        }
        return b.isEmpty() ? "" : "\n## What to apply\n\n" + b.toString().stripTrailing() + "\n";
    }

    static String html(AdviceAnswer a) {
        StringBuilder b = new StringBuilder();
        for (Item i : items(a)) {
            b.append(i.code() ? "<p>" + Svg.esc(i.what()) + "</p>\n<pre class=\"apply\">" + Svg.esc(i.text())
                    + "</pre>\n" : "<p>" + Svg.esc(i.what()) + ": " + Svg.esc(i.text()) + "</p>\n");
        }
        return b.isEmpty() ? "" : "<h2>What to apply</h2>\n" + b;
    }
}
