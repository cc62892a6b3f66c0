package org.tracingfacility.runtime.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** A context's children, kept in a hash table by frame: each found again, none lost as it grows. */
class CallNodeTest {
    @Test
    void everyChildIsFoundAgainAsTheTableGrows() {
        CallNode parent = new CallNode(-1, null);
        TreeIndex index = new TreeIndex(parent);
        Random random = new Random(42);
        List<Integer> frames = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            // dense frames, as a frame table hands them out, and scattered ones, which collide
            frames.add(i < 2000 ? i : random.nextInt(Integer.MAX_VALUE));
        }
        Collections.shuffle(frames, random);
        Map<Integer, CallNode> made = new HashMap<>();
        for (int frame : frames) {
            CallNode child = parent.child(frame, index);
            assertEquals(frame, child.frame);
            assertSame(parent, child.parent);
            made.putIfAbsent(frame, child);
            // every child made so far is still the one found, in the order of another walk
            if (made.size() % 97 == 0) {
                for (Map.Entry<Integer, CallNode> e : made.entrySet()) {
                    assertSame(e.getValue(), parent.child(e.getKey(), index), "frame " + e.getKey());
                }
            }
        }
        for (Map.Entry<Integer, CallNode> e : made.entrySet()) {
            assertSame(e.getValue(), parent.child(e.getKey(), index), "frame " + e.getKey());
        }
        int[] listed = Arrays.stream(parent.children()).mapToInt(c -> c.frame).sorted().toArray();
        assertEquals(made.keySet().stream().mapToInt(Integer::intValue).sorted().boxed()
                .collect(java.util.stream.Collectors.toList()), Arrays.stream(listed).boxed()
                .collect(java.util.stream.Collectors.toList()));
    }

    @Test
    void aNodeWithoutChildrenListsNone() {
        assertEquals(0, new CallNode(7, null).children().length);
    }
}
