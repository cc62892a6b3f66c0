package org.tracingfacility.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.tracingfacility.core.TfSettings;

class AgentOptionsTest {
    @Test
    void entriesWithoutAnOptionNameContinueTheListBeforeThem() {
        AgentOptions options = AgentOptions.parse(
                "filter=com.example.**,IO=org.lib.Parser::parse;org.lib.Lexer,monitor=IO=timing,Filtered=dprint,verbose=2");
        assertEquals(List.of("com.example.**", "IO=org.lib.Parser::parse;org.lib.Lexer"), options.filters);
        assertEquals(List.of("IO=timing", "Filtered=dprint"), options.monitors);
        assertEquals(2, options.verbose);
        assertEquals("IO=timing,Filtered=dprint", options.monitorProperty(null));
        assertEquals("Lifecycle=jfr,IO=timing,Filtered=dprint", options.monitorProperty("Lifecycle=jfr"));
    }

    @Test
    void filtersReadAsThePluginsReadThem() {
        String filters = "IO=a.B::x;c.D::y,e.F";
        assertEquals(new TfSettings().filters(List.of(filters)).requestFor("classes", null).build().filters(),
                AgentOptions.parse("filter=" + filters).filters);
    }

    @Test
    void noArgumentIsNoOption() {
        AgentOptions options = AgentOptions.parse(null);
        assertEquals(List.of(), options.filters);
        assertEquals(0, options.verbose);
        assertEquals(1, AgentOptions.parse("verbose").verbose);
    }

    @Test
    void aMistakeIsNamed() {
        assertEquals("'com.example.**' is not an option; the options are monitor=Group=factory,..., filter=spec,... "
                + "and verbose[=0..4], separated by ','",
                assertThrows(IllegalArgumentException.class, () -> AgentOptions.parse("com.example.**")).getMessage());
        assertEquals("verbose=9: the level is 0 to 4",
                assertThrows(IllegalArgumentException.class, () -> AgentOptions.parse("verbose=9")).getMessage());
        assertEquals("'filter=' names no value",
                assertThrows(IllegalArgumentException.class, () -> AgentOptions.parse("filter=")).getMessage());
    }
}
