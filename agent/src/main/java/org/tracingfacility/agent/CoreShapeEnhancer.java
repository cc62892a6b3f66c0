package org.tracingfacility.agent;

import java.util.List;
import org.tracingfacility.core.Diagnostic;
import org.tracingfacility.core.EnhanceReport;
import org.tracingfacility.core.EnhanceRequest;

/** {@link ShapeEnhancer} through the native core: one class in memory, the guarded shape. */
final class CoreShapeEnhancer implements ShapeEnhancer {
    @Override
    public byte[] guarded(String className, byte[] bytes, List<String> supertypes, List<String> groups,
            List<String> filters) throws Refusal {
        EnhanceReport report = GuardedEnhancement.enhance(className, bytes, supertypes, groups, filters, 0);
        if (!report.ok()) {
            StringBuilder reason = new StringBuilder();
            boolean badFilter = false;
            for (Diagnostic error : report.errors()) {
                badFilter |= error.rule().equals("filter");
                if (reason.length() > 0) {
                    reason.append("; ");
                }
                reason.append(error.message()).append(" [").append(error.rule()).append(']')
                        .append(error.method().map(method -> " in " + method).orElse(""));
            }
            throw new Refusal(reason.toString(), badFilter);
        }
        return report.classBytes().orElse(null);
    }
}
