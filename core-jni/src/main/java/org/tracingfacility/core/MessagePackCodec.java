package org.tracingfacility.core;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The wire form of requests and reports: MessagePack maps keyed by the field names of
 * {@code rust-core/src/request.rs} (what {@code rmp_serde::to_vec_named} reads and writes).
 * Absent values are nil. Decoding skips keys it does not know, so a newer core's report
 * still reads, and leaves absent fields at their defaults.
 */
final class MessagePackCodec {
    private MessagePackCodec() {}

    static byte[] encode(EnhanceRequest request) {
        MessagePackWriter packer = new MessagePackWriter();
        packer.mapHeader(20);
        key(packer, "format_version").integer(EnhanceRequest.FORMAT_VERSION);
        key(packer, "class_dir").string(request.classDir());
        optional(key(packer, "resource_file"), request.resourceFile());
        strings(key(packer, "classpath"), request.classpath());
        key(packer, "tracegen").bool(request.tracegen());
        key(packer, "dry_run").bool(request.dryRun());
        key(packer, "new_out").bool(request.newOut());
        key(packer, "verbose").integer(request.verbose());
        key(packer, "debug").bool(request.debug());
        strings(key(packer, "filters"), request.filters());
        key(packer, "threads").integer(request.threads());
        optional(key(packer, "cache_dir"), request.cacheDir());
        key(packer, "fail_on_skip").bool(request.failOnSkip());
        key(packer, "fail_on_error").bool(request.failOnError());
        key(packer, "warn_unused_filters").bool(request.warnUnusedFilters());
        key(packer, "runtime_classpath");
        if (request.runtimeClasspath().isPresent()) {
            strings(packer, request.runtimeClasspath().get());
        } else {
            packer.nil();
        }
        key(packer, "class");
        if (request.classBytes().isPresent()) {
            packer.mapHeader(3);
            key(packer, "name").string(request.className().orElseThrow());
            key(packer, "bytes").binary(request.classBytes().get());
            strings(key(packer, "supertypes"), request.supertypes());
        } else {
            packer.nil();
        }
        strings(key(packer, "groups"), request.groups());
        key(packer, "shape").string(request.guarded() ? "guarded" : "standard");
        key(packer, "first_site").integer(Math.max(0, request.firstSite()));
        return packer.toByteArray();
    }

    /**
     * @throws NativeCoreException if {@code bytes} is not a report map
     */
    static EnhanceReport decodeReport(byte[] bytes) {
        try {
            MessagePackReader unpacker = new MessagePackReader(bytes);
            EnhanceReport.Builder report = new EnhanceReport.Builder();
            int fields = unpacker.mapHeader();
            for (int i = 0; i < fields; i++) {
                String key = unpacker.string();
                switch (key) {
                    case "format_version": report.formatVersion = unpacker.intValue(); break;
                    case "ok": report.ok = unpacker.bool(); break;
                    case "annotations": readStrings(unpacker, report.annotations); break;
                    case "resource_file": report.resourceFile = optionalString(unpacker); break;
                    case "classes_scanned": report.classesScanned = unpacker.integer(); break;
                    case "classes_enhanced": report.classesEnhanced = unpacker.integer(); break;
                    case "classes_unchanged": report.classesUnchanged = unpacker.integer(); break;
                    case "classes_failed": report.classesFailed = unpacker.integer(); break;
                    case "errors": readDiagnostics(unpacker, report.errors); break;
                    case "classes_up_to_date": report.classesUpToDate = unpacker.integer(); break;
                    case "methods_skipped": report.methodsSkipped = unpacker.integer(); break;
                    case "messages": readStrings(unpacker, report.messages); break;
                    case "warnings": readStrings(unpacker, report.warnings); break;
                    case "written": readStrings(unpacker, report.written); break;
                    case "summary": report.summary = unpacker.string(); break;
                    case "class_bytes": report.classBytes = optionalBinary(unpacker); break;
                    case "registration": report.registration = readRegistration(unpacker); break;
                    default: unpacker.skipValue();
                }
            }
            return report.build();
        } catch (IOException e) {
            throw new NativeCoreException("TF could not decode the native core's report: " + e, e);
        }
    }

    private static EnhanceReport.Registration readRegistration(MessagePackReader unpacker) throws IOException {
        if (unpacker.tryNil()) {
            return null;
        }
        List<String> groups = new ArrayList<>();
        List<String> tracingNames = new ArrayList<>();
        int fields = unpacker.mapHeader();
        for (int i = 0; i < fields; i++) {
            switch (unpacker.string()) {
                case "groups": readStrings(unpacker, groups); break;
                case "tracing_names": readStrings(unpacker, tracingNames); break;
                default: unpacker.skipValue();
            }
        }
        return new EnhanceReport.Registration(groups, tracingNames);
    }

    private static void readDiagnostics(MessagePackReader unpacker, List<Diagnostic> into) throws IOException {
        int count = unpacker.arrayHeader();
        for (int i = 0; i < count; i++) {
            into.add(readDiagnostic(unpacker));
        }
    }

    private static Diagnostic readDiagnostic(MessagePackReader unpacker) throws IOException {
        String file = null;
        String className = null;
        String method = null;
        String rule = null;
        String message = null;
        int fields = unpacker.mapHeader();
        for (int i = 0; i < fields; i++) {
            switch (unpacker.string()) {
                case "file": file = optionalString(unpacker); break;
                case "class": className = optionalString(unpacker); break;
                case "method": method = optionalString(unpacker); break;
                case "rule": rule = unpacker.string(); break;
                case "message": message = unpacker.string(); break;
                default: unpacker.skipValue();
            }
        }
        if (rule == null || message == null) {
            throw new IOException("a diagnostic without its required rule or message");
        }
        return new Diagnostic(file, className, method, rule, message);
    }

    private static void readStrings(MessagePackReader unpacker, List<String> into) throws IOException {
        int count = unpacker.arrayHeader();
        for (int i = 0; i < count; i++) {
            into.add(unpacker.string());
        }
    }

    private static String optionalString(MessagePackReader unpacker) throws IOException {
        return unpacker.tryNil() ? null : unpacker.string();
    }

    private static byte[] optionalBinary(MessagePackReader unpacker) throws IOException {
        return unpacker.tryNil() ? null : unpacker.binary();
    }

    private static MessagePackWriter key(MessagePackWriter packer, String name) {
        return packer.string(name);
    }

    private static void optional(MessagePackWriter packer, Optional<String> value) {
        if (value.isPresent()) {
            packer.string(value.get());
        } else {
            packer.nil();
        }
    }

    private static void strings(MessagePackWriter packer, List<String> values) {
        packer.arrayHeader(values.size());
        for (String value : values) {
            packer.string(value);
        }
    }
}
