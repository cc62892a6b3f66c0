package org.tracingfacility.core;

/** What a build does first, in a JVM of its own: load the core and send it one request (over {@code args[0]}). */
public final class QuietOnJdk25Main {
    private QuietOnJdk25Main() {}

    public static void main(String[] args) throws Exception {
        EnhanceReport report = TfCore.enhance(EnhanceRequest.builder(args[0]).build());
        System.out.println(report.ok() ? "enhanced" : report.toString());
    }
}
