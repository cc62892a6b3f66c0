package org.tracingfacility.core;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.msgpack.core.MessageBufferPacker;
import org.msgpack.core.MessagePack;
import org.msgpack.core.MessagePackException;
import org.msgpack.core.MessagePacker;
import org.msgpack.core.MessageUnpacker;

/**
 * The wire form of requests and reports: MessagePack maps keyed by the field names of
 * {@code rust-core/src/request.rs} (what {@code rmp_serde::to_vec_named} reads and writes).
 * Absent values are nil. Decoding skips keys it does not know, so a newer core's report
 * still reads, and leaves absent fields at their defaults.
 */
final class MessagePackCodec {
    static {
        UnsafeFreeMessagePack.initialize();
    }

    private MessagePackCodec() {}

    static byte[] encode(EnhanceRequest request) {
        try (MessageBufferPacker packer = MessagePack.newDefaultBufferPacker()) {
            packer.packMapHeader(20);
            key(packer, "format_version").packInt(EnhanceRequest.FORMAT_VERSION);
            key(packer, "class_dir").packString(request.classDir());
            optional(key(packer, "resource_file"), request.resourceFile());
            strings(key(packer, "classpath"), request.classpath());
            key(packer, "tracegen").packBoolean(request.tracegen());
            key(packer, "dry_run").packBoolean(request.dryRun());
            key(packer, "new_out").packBoolean(request.newOut());
            key(packer, "verbose").packInt(request.verbose());
            key(packer, "debug").packBoolean(request.debug());
            strings(key(packer, "filters"), request.filters());
            key(packer, "threads").packInt(request.threads());
            optional(key(packer, "cache_dir"), request.cacheDir());
            key(packer, "fail_on_skip").packBoolean(request.failOnSkip());
            key(packer, "fail_on_error").packBoolean(request.failOnError());
            key(packer, "warn_unused_filters").packBoolean(request.warnUnusedFilters());
            key(packer, "runtime_classpath");
            if (request.runtimeClasspath().isPresent()) {
                strings(packer, request.runtimeClasspath().get());
            } else {
                packer.packNil();
            }
            key(packer, "class");
            if (request.classBytes().isPresent()) {
                byte[] bytes = request.classBytes().get();
                packer.packMapHeader(3);
                key(packer, "name").packString(request.className().orElseThrow());
                key(packer, "bytes").packBinaryHeader(bytes.length);
                packer.writePayload(bytes);
                strings(key(packer, "supertypes"), request.supertypes());
            } else {
                packer.packNil();
            }
            strings(key(packer, "groups"), request.groups());
            key(packer, "shape").packString(request.guarded() ? "guarded" : "standard");
            key(packer, "first_site").packInt(Math.max(0, request.firstSite()));
            return packer.toByteArray();
        } catch (IOException e) {
            // The packer writes to memory; only a bug gets here.
            throw new IllegalStateException("could not encode the TF request", e);
        }
    }

    /**
     * @throws NativeCoreException if {@code bytes} is not a report map
     */
    static EnhanceReport decodeReport(byte[] bytes) {
        try (MessageUnpacker unpacker = MessagePack.newDefaultUnpacker(bytes)) {
            EnhanceReport.Builder report = new EnhanceReport.Builder();
            int fields = unpacker.unpackMapHeader();
            for (int i = 0; i < fields; i++) {
                String key = unpacker.unpackString();
                switch (key) {
                    case "format_version": report.formatVersion = unpacker.unpackInt(); break;
                    case "ok": report.ok = unpacker.unpackBoolean(); break;
                    case "annotations": readStrings(unpacker, report.annotations); break;
                    case "resource_file": report.resourceFile = optionalString(unpacker); break;
                    case "classes_scanned": report.classesScanned = unpacker.unpackLong(); break;
                    case "classes_enhanced": report.classesEnhanced = unpacker.unpackLong(); break;
                    case "classes_unchanged": report.classesUnchanged = unpacker.unpackLong(); break;
                    case "classes_failed": report.classesFailed = unpacker.unpackLong(); break;
                    case "errors": readDiagnostics(unpacker, report.errors); break;
                    case "classes_up_to_date": report.classesUpToDate = unpacker.unpackLong(); break;
                    case "methods_skipped": report.methodsSkipped = unpacker.unpackLong(); break;
                    case "messages": readStrings(unpacker, report.messages); break;
                    case "warnings": readStrings(unpacker, report.warnings); break;
                    case "written": readStrings(unpacker, report.written); break;
                    case "summary": report.summary = unpacker.unpackString(); break;
                    case "class_bytes": report.classBytes = optionalBinary(unpacker); break;
                    case "registration": report.registration = readRegistration(unpacker); break;
                    default: unpacker.skipValue();
                }
            }
            return report.build();
        } catch (IOException | MessagePackException e) {
            throw new NativeCoreException("TF could not decode the native core's report: " + e, e);
        }
    }

    private static EnhanceReport.Registration readRegistration(MessageUnpacker unpacker) throws IOException {
        if (unpacker.tryUnpackNil()) {
            return null;
        }
        List<String> groups = new ArrayList<>();
        List<String> tracingNames = new ArrayList<>();
        int fields = unpacker.unpackMapHeader();
        for (int i = 0; i < fields; i++) {
            switch (unpacker.unpackString()) {
                case "groups": readStrings(unpacker, groups); break;
                case "tracing_names": readStrings(unpacker, tracingNames); break;
                default: unpacker.skipValue();
            }
        }
        return new EnhanceReport.Registration(groups, tracingNames);
    }

    private static void readDiagnostics(MessageUnpacker unpacker, List<Diagnostic> into) throws IOException {
        int count = unpacker.unpackArrayHeader();
        for (int i = 0; i < count; i++) {
            into.add(readDiagnostic(unpacker));
        }
    }

    private static Diagnostic readDiagnostic(MessageUnpacker unpacker) throws IOException {
        String file = null;
        String className = null;
        String method = null;
        String rule = null;
        String message = null;
        int fields = unpacker.unpackMapHeader();
        for (int i = 0; i < fields; i++) {
            switch (unpacker.unpackString()) {
                case "file": file = optionalString(unpacker); break;
                case "class": className = optionalString(unpacker); break;
                case "method": method = optionalString(unpacker); break;
                case "rule": rule = unpacker.unpackString(); break;
                case "message": message = unpacker.unpackString(); break;
                default: unpacker.skipValue();
            }
        }
        if (rule == null || message == null) {
            throw new IOException("a diagnostic without its required rule or message");
        }
        return new Diagnostic(file, className, method, rule, message);
    }

    private static void readStrings(MessageUnpacker unpacker, List<String> into) throws IOException {
        int count = unpacker.unpackArrayHeader();
        for (int i = 0; i < count; i++) {
            into.add(unpacker.unpackString());
        }
    }

    private static String optionalString(MessageUnpacker unpacker) throws IOException {
        return unpacker.tryUnpackNil() ? null : unpacker.unpackString();
    }

    private static byte[] optionalBinary(MessageUnpacker unpacker) throws IOException {
        return unpacker.tryUnpackNil() ? null : unpacker.readPayload(unpacker.unpackBinaryHeader());
    }

    private static MessagePacker key(MessagePacker packer, String name) throws IOException {
        return packer.packString(name);
    }

    private static void optional(MessagePacker packer, Optional<String> value) throws IOException {
        if (value.isPresent()) {
            packer.packString(value.get());
        } else {
            packer.packNil();
        }
    }

    private static void strings(MessagePacker packer, List<String> values) throws IOException {
        packer.packArrayHeader(values.size());
        for (String value : values) {
            packer.packString(value);
        }
    }
}
