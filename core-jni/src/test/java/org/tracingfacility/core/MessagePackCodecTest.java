package org.tracingfacility.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.msgpack.core.MessageBufferPacker;
import org.msgpack.core.MessagePack;
import org.msgpack.value.Value;

/** The wire form, checked against msgpack-core's own generic reader and writer. */
class MessagePackCodecTest {
    @Test
    void aRequestIsAMapOfEveryFieldByItsRustName() throws IOException {
        EnhanceRequest request = EnhanceRequest.builder("/c").classpath(List.of("/a.jar")).verbose(2)
                .filters(List.of("IO=com.example.*")).threads(3).failOnSkip(true)
                .runtimeClasspath(List.of("/tf-runtime.jar")).build();

        Map<String, Value> fields = new LinkedHashMap<>();
        MessagePack.newDefaultUnpacker(MessagePackCodec.encode(request)).unpackValue().asMapValue().map()
                .forEach((k, v) -> fields.put(k.asStringValue().asString(), v));

        assertEquals(List.of("format_version", "class_dir", "resource_file", "classpath", "tracegen", "dry_run",
                "new_out", "verbose", "debug", "filters", "threads", "cache_dir", "fail_on_skip", "fail_on_error",
                "warn_unused_filters", "runtime_classpath", "class", "groups", "shape", "first_site"),
                List.copyOf(fields.keySet()));
        assertEquals(1, fields.get("format_version").asIntegerValue().asInt());
        assertEquals("/c", fields.get("class_dir").asStringValue().asString());
        assertTrue(fields.get("resource_file").isNilValue());
        assertEquals("/a.jar", fields.get("classpath").asArrayValue().get(0).asStringValue().asString());
        assertTrue(fields.get("tracegen").asBooleanValue().getBoolean(), "tracegen defaults to true");
        assertEquals(2, fields.get("verbose").asIntegerValue().asInt());
        assertEquals(3, fields.get("threads").asIntegerValue().asInt());
        assertTrue(fields.get("fail_on_skip").asBooleanValue().getBoolean());
        assertEquals("standard", fields.get("shape").asStringValue().asString(), "the shape defaults to standard");
        Map<Value, Value> guarded = MessagePack.newDefaultUnpacker(MessagePackCodec.encode(EnhanceRequest
                .forClass("a.B", new byte[] {1}).guarded(7).build())).unpackValue().asMapValue().map();
        assertEquals("guarded", guarded.get(org.msgpack.value.ValueFactory.newString("shape")).asStringValue().asString());
        assertEquals(7, guarded.get(org.msgpack.value.ValueFactory.newString("first_site")).asIntegerValue().asInt());
        assertTrue(fields.get("fail_on_error").asBooleanValue().getBoolean(), "failOnError defaults to true");
        assertTrue(fields.get("warn_unused_filters").asBooleanValue().getBoolean(), "warns by default");
        assertEquals("/tf-runtime.jar",
                fields.get("runtime_classpath").asArrayValue().get(0).asStringValue().asString());
    }

    @Test
    void aClassInMemoryTravelsWithItsNameBytesAndSupertypes() throws IOException {
        EnhanceRequest request = EnhanceRequest.forClass("org.h2.jdbc.JdbcConnection", new byte[] {1, 2})
                .supertypes(List.of("org.h2.message.TraceObject", "java.sql.Connection")).build();
        Map<Value, Value> all = MessagePack.newDefaultUnpacker(MessagePackCodec.encode(request)).unpackValue()
                .asMapValue().map();
        Map<String, Value> cls = new LinkedHashMap<>();
        all.get(org.msgpack.value.ValueFactory.newString("class")).asMapValue().map()
                .forEach((k, v) -> cls.put(k.asStringValue().asString(), v));
        assertEquals(List.of("name", "bytes", "supertypes"), List.copyOf(cls.keySet()));
        assertEquals("org.h2.jdbc.JdbcConnection", cls.get("name").asStringValue().asString());
        assertEquals(2, cls.get("bytes").asBinaryValue().asByteArray().length);
        assertEquals("java.sql.Connection", cls.get("supertypes").asArrayValue().get(1).asStringValue().asString());
    }

    @Test
    void withoutARuntimeClassPathTheCoreIsToldToCheckNothing() throws IOException {
        Map<String, Value> fields = new LinkedHashMap<>();
        MessagePack.newDefaultUnpacker(MessagePackCodec.encode(EnhanceRequest.builder("/c").build())).unpackValue()
                .asMapValue().map().forEach((k, v) -> fields.put(k.asStringValue().asString(), v));
        assertTrue(fields.get("runtime_classpath").isNilValue());
    }

    @Test
    void aReportDecodesIgnoringUnknownFieldsAndDefaultingAbsentOnes() throws IOException {
        MessageBufferPacker packer = MessagePack.newDefaultBufferPacker();
        packer.packMapHeader(6);
        packer.packString("format_version").packInt(1);
        packer.packString("methods_skipped").packLong(3);
        packer.packString("ok").packBoolean(false);
        packer.packString("added_by_a_newer_core").packArrayHeader(1).packMapHeader(0);
        packer.packString("errors").packArrayHeader(1).packMapHeader(4);
        packer.packString("file").packString("/c/Broken.class");
        packer.packString("class").packNil();
        packer.packString("rule").packString("parse");
        packer.packString("message").packString("not a valid class file");
        packer.packString("summary").packString("TF: failed");

        EnhanceReport report = MessagePackCodec.decodeReport(packer.toByteArray());

        assertEquals(false, report.ok());
        assertEquals("TF: failed", report.summary());
        assertEquals(3, report.methodsSkipped());
        assertEquals(List.of(), report.annotations());
        assertEquals(Optional.empty(), report.resourceFile());
        assertEquals(List.of(new Diagnostic("/c/Broken.class", null, null, "parse", "not a valid class file")),
                report.errors());
        assertEquals("/c/Broken.class: not a valid class file [parse]", report.errors().get(0).toString());
    }

    @Test
    void somethingThatIsNotAReportIsANativeCoreException() {
        assertThrows(NativeCoreException.class, () -> MessagePackCodec.decodeReport(new byte[] {(byte) 0x92, 1}));
    }
}
