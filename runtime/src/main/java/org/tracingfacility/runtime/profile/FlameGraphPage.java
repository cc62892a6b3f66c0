package org.tracingfacility.runtime.profile;


/**
 * One self-contained HTML page (inline script and style, nothing fetched) drawing a
 * {@link CallTree} as a flame graph: {@link FlameGraphTemplate}'s page with the tree inserted
 * as JSON.
 */
final class FlameGraphPage {
    private static final String DATA = "/*TF_PROFILE_DATA*/";
    private static final String TITLE = "/*TF_TITLE*/";

    private FlameGraphPage() {
    }

    /**
     * The page of {@code tree}: widths are inclusive time, or, for a tree that counted calls
     * only, calls with those below (the root's {@code "u"} tells the page which).
     */
    static String render(CallTree tree, String title) {
        StringBuilder json = new StringBuilder();
        appendJson(tree, json, true);
        return FlameGraphTemplate.PAGE.replace(TITLE, escapeHtml(title)).replace(DATA, json);
    }

    private static void appendJson(CallTree node, StringBuilder out, boolean root) {
        out.append("{\"n\":");
        appendString(node.name(), out);
        if (root) {
            out.append(",\"u\":\"").append(node.timed() ? "ns" : "calls").append('"');
        }
        out.append(",\"c\":").append(node.calls())
                .append(",\"i\":").append(node.timed() ? node.inclusiveNanos() : node.inclusiveCalls())
                .append(",\"e\":").append(node.timed() ? node.exclusiveNanos() : node.calls())
                .append(",\"k\":[");
        boolean first = true;
        for (CallTree child : node.children()) {
            if (!first) {
                out.append(',');
            }
            first = false;
            appendJson(child, out, false);
        }
        out.append("]}");
    }

    /** A JSON string that is also safe inside a script element ({@code <} escaped). */
    private static void appendString(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch == '"' || ch == '\\') {
                out.append('\\').append(ch);
            } else if (ch < 0x20 || ch == '<' || ch == '>' || ch == '&' || ch == 0x2028 || ch == 0x2029) {
                out.append(String.format("\\u%04x", (int) ch));
            } else {
                out.append(ch);
            }
        }
        out.append('"');
    }

    private static String escapeHtml(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
