package org.tracingfacility.runtime.profile;

import java.util.Arrays;

/**
 * The contexts of one tree by number, so that a thread's place in its tree is an {@code int}
 * ({@link ThreadProfile}): every call moves that place down and back up, and storing a
 * reference there instead, from an old object to a context in another region, is a store
 * G1's write barrier orders with a fence (JDK 25). Written by the tree's thread alone;
 * contexts are numbered as they are made, the root 0.
 */
final class TreeIndex {
    final CallNode root;
    /** The contexts by number; replaced, larger, when full. */
    CallNode[] nodes = new CallNode[64];
    private int size;

    TreeIndex(CallNode root) {
        this.root = root;
        add(root);
    }

    /**
     * Numbers a new context. Run at work (its growth is {@code Arrays.copyOf}, JDK code the
     * agent may trace): contexts are made there ({@code CallNode#created}).
     */
    void add(CallNode node) {
        if (size == nodes.length) {
            nodes = Arrays.copyOf(nodes, size * 2);
        }
        node.id = size;
        nodes[size++] = node;
    }
}
