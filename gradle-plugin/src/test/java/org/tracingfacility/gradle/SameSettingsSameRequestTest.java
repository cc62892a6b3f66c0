package org.tracingfacility.gradle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracingfacility.core.EnhanceRequest;
import org.tracingfacility.core.TfSettings;
import org.tracingfacility.maven.MavenSettingsPath;

/**
 * The same settings, written once in a POM and once in a {@code tf { }} block, reach the core
 * as the same request: the filter grammar above all ({@code ;} inside a filter, {@code ,}
 * between filters), which the two plugins once read differently.
 */
class SameSettingsSameRequestTest {
    private static final List<String> FILTERS =
            List.of("IO=com.example.Reader::read;com.example.Writer::write", "com.example.Foo::bar, @com.example.Timed");

    @TempDir
    Path projectDir;

    @Test
    void bothPluginsSendTheSameRequest() {
        TfExtension tf = TestProjects.javaProjectWithTf(projectDir).getExtensions().getByType(TfExtension.class);
        tf.getTracegen().set(false);
        tf.getVerbose().set(2);
        tf.getFailOnError().set(false);
        tf.getFailOnSkip().set(true);
        tf.getFilters().set(FILTERS);
        tf.getDryRun().set(false);
        tf.getThreads().set(3);
        tf.getUseCache().set(true);

        String gradle = describe(tf.toSettings());
        String maven = describe(MavenSettingsPath.settings(false, 2, false, true, FILTERS, false, 3, true));

        assertEquals(gradle, maven);
        assertEquals("filters=[IO=com.example.Reader::read;com.example.Writer::write, com.example.Foo::bar, "
                + "@com.example.Timed]", maven.lines().filter(line -> line.startsWith("filters=")).findFirst()
                .orElseThrow());
    }

    @Test
    void theDefaultsAreTheSame() {
        TfExtension tf = TestProjects.javaProjectWithTf(projectDir).getExtensions().getByType(TfExtension.class);
        assertEquals(describe(tf.toSettings()), describe(MavenSettingsPath.settings(
                TfSettings.DEFAULT_TRACEGEN, TfSettings.DEFAULT_VERBOSE, TfSettings.DEFAULT_FAIL_ON_ERROR,
                TfSettings.DEFAULT_FAIL_ON_SKIP, null, TfSettings.DEFAULT_DRY_RUN, TfSettings.DEFAULT_THREADS,
                TfSettings.DEFAULT_USE_CACHE)));
    }

    /** Every setting the request carries, one per line, for the same directory and cache. */
    private static String describe(TfSettings settings) {
        EnhanceRequest request = settings.requestFor("classes", "cache").build();
        return String.join("\n", "skip=" + settings.skip(), "tracegen=" + request.tracegen(),
                "verbose=" + request.verbose(), "debug=" + request.debug(), "failOnError=" + request.failOnError(),
                "failOnSkip=" + request.failOnSkip(), "filters=" + request.filters(), "dryRun=" + request.dryRun(),
                "threads=" + request.threads(), "cacheDir=" + request.cacheDir().orElse("none"),
                "warnUnusedFilters=" + request.warnUnusedFilters());
    }
}
