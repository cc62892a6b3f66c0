package org.tracingfacility.runtime.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Collections;
import org.junit.jupiter.api.Test;

/** The tracing names of {@link EnhancedCodeSupport#registerClass}: one string, each name after its length. */
class TracingNamesTest {
    @Test
    void tracingNamesAreSplitByTheirLengthsWhateverTheyHold() {
        assertEquals(Arrays.asList("self", "toString"),
                EnhancedCodeSupport.splitTracingNames(getClass(), "4:self8:toString"));
        assertEquals(Arrays.asList("12:3", "", "a\u0000b", "\uD835\uDD18"),
                EnhancedCodeSupport.splitTracingNames(getClass(), "4:12:30:3:a\u0000b2:\uD835\uDD18"));
        assertEquals(Collections.emptyList(), EnhancedCodeSupport.splitTracingNames(getClass(), ""));
    }

    @Test
    void malformedTracingNamesFailNamingTheClassAndWhere() {
        for (String joined : new String[] {"4:sel", "4self", "x:abc", "-1:a", "3:abc2"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> EnhancedCodeSupport.splitTracingNames(TracingNamesTest.class, joined));
            assertTrue(e.getMessage().startsWith(TracingNamesTest.class.getName() + ": tracing names malformed at"),
                    e.getMessage());
        }
    }
}
