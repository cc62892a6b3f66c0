package org.tracingfacility.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.msgpack.core.MessageBufferPacker;
import org.msgpack.core.MessagePack;
import org.msgpack.core.MessageUnpacker;
import org.msgpack.value.ImmutableValue;
import org.msgpack.value.Value;
import org.msgpack.value.ValueFactory;

/**
 * TF's MessagePack reader and writer against msgpack-core, the format's reference library for
 * Java: on generated values of every width and length boundary, TF writes the bytes msgpack-core
 * writes, reads what msgpack-core writes, and skips any value msgpack-core can write (floats,
 * extensions, nesting) to land exactly after it.
 */
class MessagePackWireTest {
    private static final long[] INTEGER_EDGES = {0, 1, 31, 32, 127, 128, 255, 256, 65_535, 65_536,
        4_294_967_295L, 4_294_967_296L, Long.MAX_VALUE, -1, -32, -33, -128, -129, -32_768, -32_769,
        Integer.MIN_VALUE, Integer.MIN_VALUE - 1L, Long.MIN_VALUE};
    private static final int[] LENGTH_EDGES = {0, 1, 15, 16, 31, 32, 255, 256, 65_535, 65_536};

    @Test
    void integersAreWrittenAsMsgpackCoreWritesThemAndReadBack() throws IOException {
        Random random = new Random(47);
        long[] values = Arrays.copyOf(INTEGER_EDGES, INTEGER_EDGES.length + 2000);
        for (int i = INTEGER_EDGES.length; i < values.length; i++) {
            values[i] = random.nextLong() >> random.nextInt(64);
        }
        for (long value : values) {
            MessageBufferPacker reference = MessagePack.newDefaultBufferPacker();
            reference.packLong(value);
            byte[] expected = reference.toByteArray();
            assertArrayEquals(expected, new MessagePackWriter().integer(value).toByteArray(), "the bytes of " + value);
            assertEquals(value, new MessagePackReader(expected).integer(), "read back: " + value);
        }
    }

    @Test
    void stringsBinaryAndHeadersAtEveryLengthBoundary() throws IOException {
        for (int length : LENGTH_EDGES) {
            String text = "é".repeat(length / 2) + "x".repeat(length % 2); // two UTF-8 bytes a character
            byte[] binary = new byte[length];
            new Random(length).nextBytes(binary);

            MessageBufferPacker reference = MessagePack.newDefaultBufferPacker();
            reference.packString(text).packBinaryHeader(length).writePayload(binary);
            reference.packArrayHeader(length).packMapHeader(length);
            byte[] expected = reference.toByteArray();

            byte[] written = new MessagePackWriter().string(text).binary(binary).arrayHeader(length).mapHeader(length)
                    .toByteArray();
            assertArrayEquals(expected, written, "length " + length);

            MessagePackReader reader = new MessagePackReader(expected);
            assertEquals(text, reader.string());
            assertArrayEquals(binary, reader.binary());
            assertEquals(length, reader.arrayHeader());
            assertEquals(length, reader.mapHeader());
        }
    }

    @Test
    void anyValueIsSkippedWhole() throws IOException {
        Random random = new Random(50);
        for (int i = 0; i < 500; i++) {
            Value value = randomValue(random, 3);
            MessageBufferPacker reference = MessagePack.newDefaultBufferPacker();
            reference.packValue(value);
            reference.packString("after");
            MessagePackReader reader = new MessagePackReader(reference.toByteArray());
            reader.skipValue();
            assertEquals("after", reader.string(), () -> "after skipping " + value);
        }
    }

    @Test
    void whatTfWritesMsgpackCoreReads() throws IOException {
        byte[] written = new MessagePackWriter().mapHeader(3).string("a").bool(true).string("b").nil()
                .string("c").arrayHeader(2).integer(-5).integer(300).toByteArray();
        MessageUnpacker unpacker = MessagePack.newDefaultUnpacker(written);
        assertEquals(ValueFactory.newMap(ValueFactory.newString("a"), ValueFactory.newBoolean(true),
                ValueFactory.newString("b"), ValueFactory.newNil(),
                ValueFactory.newString("c"), ValueFactory.newArray(ValueFactory.newInteger(-5), ValueFactory.newInteger(300))),
                unpacker.unpackValue());
        assertFalse(unpacker.hasNext());
    }

    @Test
    void aTruncatedOrMistypedMessageNamesTheByteAndWhatWasThere() throws IOException {
        byte[] truncated = Arrays.copyOf(new MessagePackWriter().string("twelve bytes").toByteArray(), 5);
        IOException cut = assertThrows(IOException.class, () -> new MessagePackReader(truncated).string());
        assertEquals("at byte 1: 12 bytes expected, 4 left", cut.getMessage());

        byte[] aBoolean = new MessagePackWriter().bool(false).toByteArray();
        IOException mistyped = assertThrows(IOException.class, () -> new MessagePackReader(aBoolean).string());
        assertEquals("at byte 0: expected a string, found type byte 0xc2", mistyped.getMessage());

        IOException empty = assertThrows(IOException.class, () -> new MessagePackReader(new byte[0]).mapHeader());
        assertEquals("at byte 0: the message ends where a value was expected", empty.getMessage());

        IOException never = assertThrows(IOException.class, () -> new MessagePackReader(new byte[] {(byte) 0xc1}).skipValue());
        assertEquals("at byte 0: expected a MessagePack value, found type byte 0xc1", never.getMessage());
        assertTrue(new MessagePackReader(new byte[] {(byte) 0xc0}).tryNil());
    }

    private static ImmutableValue randomValue(Random random, int depth) {
        switch (random.nextInt(depth > 0 ? 11 : 9)) {
            case 0: return ValueFactory.newNil();
            case 1: return ValueFactory.newBoolean(random.nextBoolean());
            case 2: return ValueFactory.newInteger(random.nextLong() >> random.nextInt(64));
            case 3: return ValueFactory.newFloat(random.nextDouble());
            case 4: return ValueFactory.newFloat(random.nextFloat());
            case 5: return ValueFactory.newString("s".repeat(random.nextInt(300)));
            case 6: return ValueFactory.newBinary(new byte[random.nextInt(300)]);
            case 7: return ValueFactory.newExtension((byte) random.nextInt(100), new byte[pick(random, 0, 1, 2, 4, 8, 16, 3, 300)]);
            case 8: return ValueFactory.newInteger(Long.MAX_VALUE - random.nextInt(10));
            case 9: {
                ImmutableValue[] elements = new ImmutableValue[random.nextInt(20)];
                for (int i = 0; i < elements.length; i++) {
                    elements[i] = randomValue(random, depth - 1);
                }
                return ValueFactory.newArray(elements);
            }
            default: {
                ImmutableValue[] entries = new ImmutableValue[2 * random.nextInt(20)];
                for (int i = 0; i < entries.length; i++) {
                    entries[i] = randomValue(random, depth - 1);
                }
                return ValueFactory.newMap(entries);
            }
        }
    }

    private static int pick(Random random, int... choices) {
        return choices[random.nextInt(choices.length)];
    }
}
