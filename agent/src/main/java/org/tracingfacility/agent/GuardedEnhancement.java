package org.tracingfacility.agent;

import java.util.List;
import org.tracingfacility.core.EnhanceReport;
import org.tracingfacility.core.EnhanceRequest;
import org.tracingfacility.runtime.support.GuardedSites;

/**
 * One class through the native core into the guarded shape, the agent's at load time and at
 * run time: sites reserved in the runtime's table before the call (one for each group the
 * class's loader knows of, and one for {@code Filtered}: the core tells which it used only
 * after), and declared after it, before the JVM defines or retransforms the class, so that
 * its first call finds what to register. The caller runs this at work
 * ({@code ThreadsAtWork}), so nothing here is seen by a monitor.
 */
final class GuardedEnhancement {
    private GuardedEnhancement() {
    }

    /**
     * The core's report for {@code bytes} in the guarded shape; its registration declared.
     * {@code supertypes}: every supertype of the class the agent knows, for {@code Type+} filters.
     */
    static EnhanceReport enhance(String className, byte[] bytes, List<String> supertypes, List<String> groups,
            List<String> filters, int verbose) {
        int firstSite = GuardedSites.reserve(groups.size() + 1);
        EnhanceReport report = CoreReplies.enhance(EnhanceRequest.forClass(className, bytes)
                .guarded(firstSite)
                .supertypes(supertypes)
                .filters(filters)
                .groups(groups)
                .verbose(verbose)
                .build());
        if (report.ok() && report.classBytes().isPresent() && report.registration().isPresent()) {
            EnhanceReport.Registration registration = report.registration().get();
            GuardedSites.declare(firstSite, registration.groups(), registration.tracingNames());
        }
        return report;
    }
}
