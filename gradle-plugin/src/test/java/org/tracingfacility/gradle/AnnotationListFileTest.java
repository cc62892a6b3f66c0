package org.tracingfacility.gradle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The list format the plugin writes when it merges compile tasks' lists: the core's own
 * (the expected texts are those of {@code rust-core/src/metadata.rs}'s tests).
 */
class AnnotationListFileTest {
    @TempDir
    Path dir;

    @Test
    void sortedNumberedAndDeduplicatedAsTheCoreWritesIt() {
        String text = new String(AnnotationListFile.render(Arrays.asList("b.Y", "a.X", "b.Y")), StandardCharsets.ISO_8859_1);

        assertEquals("# TF (Tracing Facility) annotations, written by tf-enhance\n"
                + "org.tracingfacility.tf.annotations.size=2\n"
                + "org.tracingfacility.tf.annotation.1=a.X\n"
                + "org.tracingfacility.tf.annotation.2=b.Y\n", text);
    }

    @Test
    void nonAsciiNamesAreEscapedAndSortedByCodePointAsRustSortsThem() throws IOException {
        // UTF-16 order would put the supplementary character (a surrogate pair, 0xD83D...) first.
        List<String> names = Arrays.asList("p.\uD83D\uDE00", "p.\uFF21", "\u00E9.\u00DC");

        byte[] bytes = AnnotationListFile.render(names);

        String text = new String(bytes, StandardCharsets.ISO_8859_1);
        assertTrue(text.contains("annotation.1=p.\\uFF21\n"), text);
        assertTrue(text.contains("annotation.2=p.\\uD83D\\uDE00\n"), text);
        assertTrue(text.contains("annotation.3=\\u00E9.\\u00DC\n"), text);
        Path file = Files.write(dir.resolve("list.properties"), bytes);
        assertEquals(Arrays.asList("p.\uFF21", "p.\uD83D\uDE00", "\u00E9.\u00DC"), AnnotationListFile.read(file));
    }

    @Test
    void aFileThatIsNotAListIsRefusedNamingIt() throws IOException {
        Path file = Files.write(dir.resolve("other.properties"),
                "org.tracingfacility.tf.annotations.size=2\norg.tracingfacility.tf.annotation.1=a.X\n"
                        .getBytes(StandardCharsets.ISO_8859_1));

        IOException refusal = assertThrows(IOException.class, () -> AnnotationListFile.read(file));

        assertTrue(refusal.getMessage().contains(file.toString()) && refusal.getMessage().contains("annotation.2"),
                refusal.getMessage());
    }
}
