package dev.schedsim.engine.sched;

/**
 * A long run queue's {@code tasks_timeline}: the queued entities other than curr in a search tree ordered by
 * (virtual deadline, enqueue order), each node carrying the smallest (vruntime, enqueue order) of its subtree —
 * the kernel's deadline-sorted rbtree with the {@code min_vruntime} augmentation (commit 2227a957e1d5,
 * "sched/eevdf: Sort the rbtree by virtual deadline", v6.8; {@code __enqueue_entity()},
 * {@code __dequeue_entity()}, {@code min_vruntime_update()}), so that {@code __pick_eevdf()} finds the eligible
 * entity with the earliest deadline in O(log n) instead of scanning the queue.
 *
 * <p>The tree is a treap (priorities hashed from the enqueue order, so its shape is deterministic) rather than
 * a red-black tree; the shape never shows in a result, since every query asks for a minimum under a total order.
 * Ties in deadline or vruntime break towards the earlier enqueue, exactly as the array scan of a short queue
 * does ({@link CfsRq} keeps short queues in enqueue order and scans them).
 */
public final class Timeline {
    private Timeline() {
    }

    /** entity_before() on (deadline, enqueue order): the tree's order. */
    public static boolean before(Entity a, Entity b) {
        return a.deadline < b.deadline || (a.deadline == b.deadline && a.seq < b.seq);
    }

    /** The leftmost-by-vruntime order (ties: earlier enqueue first). */
    public static boolean lowerVruntime(Entity a, Entity b) {
        return a.vruntime < b.vruntime || (a.vruntime == b.vruntime && a.seq < b.seq);
    }

    /** The treap priority of an entity enqueued as number {@code seq} (a SplitMix64 finalizer). */
    public static int priority(long seq) {
        long z = seq * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return (int) (z ^ (z >>> 31));
    }

    /** min_vruntime_update(): the subtree's entity of least (vruntime, enqueue order). */
    private static void pull(Entity n) {
        Entity m = n;
        Entity l = n.tl;
        if (l != null && lowerVruntime(l.tmin, m)) {
            m = l.tmin;
        }
        Entity r = n.tr;
        if (r != null && lowerVruntime(r.tmin, m)) {
            m = r.tmin;
        }
        n.tmin = m;
    }

    /**
     * Inserts x under root; returns the new root. The path down only takes x into its minimum; a rotation
     * hands the subtree's minimum to the new top and recomputes the one moved down. (Links are stored only
     * when they change: a reference store costs a garbage-collector barrier.)
     */
    public static Entity insert(Entity root, Entity x) {
        if (root == null) {
            x.tl = null;
            x.tr = null;
            x.tmin = x;
            return x;
        }
        if (lowerVruntime(x, root.tmin)) {
            root.tmin = x;
        }
        if (before(x, root)) {
            Entity l = insert(root.tl, x);
            if (l.tprio > root.tprio) {
                root.tl = l.tr;
                l.tr = root;
                l.tmin = root.tmin;
                pull(root);
                return l;
            }
            if (root.tl != l) {
                root.tl = l;
            }
        } else {
            Entity r = insert(root.tr, x);
            if (r.tprio > root.tprio) {
                root.tr = r.tl;
                r.tl = root;
                r.tmin = root.tmin;
                pull(root);
                return r;
            }
            if (root.tr != r) {
                root.tr = r;
            }
        }
        return root;
    }

    /** Removes x (which is in the tree) from under root; returns the new root. */
    public static Entity delete(Entity root, Entity x) {
        if (root == x) {
            Entity m = merge(x.tl, x.tr);
            x.tl = null;
            x.tr = null;
            x.tmin = null;
            return m;
        }
        if (before(x, root)) {
            Entity l = delete(root.tl, x);
            if (root.tl != l) {
                root.tl = l;
            }
        } else {
            Entity r = delete(root.tr, x);
            if (root.tr != r) {
                root.tr = r;
            }
        }
        if (root.tmin == x) {
            pull(root);
        }
        return root;
    }

    /** Joins two treaps whose every key in a is before every key in b. */
    private static Entity merge(Entity a, Entity b) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        if (a.tprio > b.tprio) {
            a.tr = merge(a.tr, b);
            pull(a);
            return a;
        }
        b.tl = merge(a, b.tl);
        pull(b);
        return b;
    }

    /**
     * The heap search of {@code __pick_eevdf()}: the entity with the earliest (deadline, enqueue order) among
     * those with (v − base)·w ≤ sum (entity_eligible()); null if none is. A subtree holds an eligible entity
     * exactly when its least vruntime is eligible.
     */
    public static Entity firstEligible(Entity node, long base, long sum, long w) {
        while (node != null) {
            Entity l = node.tl;
            if (l != null && (l.tmin.vruntime - base) * w <= sum) {
                node = l;
                continue;
            }
            if ((node.vruntime - base) * w <= sum) {
                return node;
            }
            node = node.tr;
        }
        return null;
    }

    /** Appends the subtree's entities to out from index k; returns the next index. */
    public static int collect(Entity node, Entity[] out, int k) {
        while (node != null) {
            k = collect(node.tl, out, k);
            out[k++] = node;
            node = node.tr;
        }
        return k;
    }
}
