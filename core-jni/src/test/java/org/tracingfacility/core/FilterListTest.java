package org.tracingfacility.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class FilterListTest {
    @Test
    void aSemicolonSeparatesTheTargetsOfOneFilterAndACommaSeparatesFilters() {
        assertEquals(List.of("IO=a.B::x;c.D::y", "e.F", "@com.example.Timed", "::<clinit>"),
                FilterList.split(Arrays.asList("IO=a.B::x;c.D::y, e.F", null, " @com.example.Timed ,", "::<clinit>")));
    }

    @Test
    void aTypeAndItsSubtypesStayOneTarget() {
        assertEquals(List.of("java.sql.Connection+::prepareStatement", "IO=java.io.OutputStream+;a.B"),
                FilterList.split(List.of("java.sql.Connection+::prepareStatement, IO=java.io.OutputStream+;a.B")));
    }

    @Test
    void noneConfiguredIsEmpty() {
        assertEquals(List.of(), FilterList.split(null));
        assertEquals(List.of(), FilterList.split(List.of(" , ")));
    }

    @Test
    void theSettingsReadFiltersThisWay() {
        EnhanceRequest request = new TfSettings().filters(List.of("IO=a.B::x;c.D::y,e.F")).requestFor("classes", null)
                .build();
        assertEquals(List.of("IO=a.B::x;c.D::y", "e.F"), request.filters());
    }
}
