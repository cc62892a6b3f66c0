package org.tracingfacility.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class FilterListTest {
    @Test
    void acceptsElementsSemicolonsAndCommas() {
        assertEquals(List.of("com.example.Foo::bar", "IO=com.example.Io::*", "::<clinit>", "@com.example.Timed"),
                FilterList.split(Arrays.asList("com.example.Foo::bar; IO=com.example.Io::*", " ::<clinit> ,",
                        null, "@com.example.Timed")));
    }

    @Test
    void noneConfiguredIsEmpty() {
        assertEquals(List.of(), FilterList.split(null));
        assertEquals(List.of(), FilterList.split(List.of(" ; ")));
    }
}
