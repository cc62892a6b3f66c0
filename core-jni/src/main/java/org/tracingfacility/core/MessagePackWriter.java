package org.tracingfacility.core;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Writes the part of MessagePack that requests use (maps, arrays, strings, booleans, integers,
 * nil, binary), each value in its shortest form, as {@code rmp_serde} does. Hand-written rather
 * than msgpack-core because the agent encodes a request as a JVM starts: msgpack-core picks its
 * buffer class by reflection when it first runs, which costs a traced hello world tens of
 * milliseconds on JDK 25; this class costs what its few methods do. msgpack-core stays the test
 * oracle ({@code MessagePackWireTest}).
 */
final class MessagePackWriter {
    private byte[] buffer = new byte[256];
    private int length;

    MessagePackWriter mapHeader(int entries) {
        return header(entries, 0x80, 0xde, 0xdf);
    }

    MessagePackWriter arrayHeader(int elements) {
        return header(elements, 0x90, 0xdc, 0xdd);
    }

    MessagePackWriter nil() {
        return put(0xc0);
    }

    MessagePackWriter bool(boolean value) {
        return put(value ? 0xc3 : 0xc2);
    }

    MessagePackWriter integer(long value) {
        if (value >= -32 && value <= 0x7f) {
            return put((int) value & 0xff);
        }
        if (value >= 0) {
            if (value <= 0xff) {
                return put(0xcc).put((int) value);
            }
            if (value <= 0xffff) {
                return put(0xcd).bigEndian(value, 2);
            }
            if (value <= 0xffff_ffffL) {
                return put(0xce).bigEndian(value, 4);
            }
            return put(0xcf).bigEndian(value, 8);
        }
        if (value >= Byte.MIN_VALUE) {
            return put(0xd0).put((int) value & 0xff);
        }
        if (value >= Short.MIN_VALUE) {
            return put(0xd1).bigEndian(value, 2);
        }
        if (value >= Integer.MIN_VALUE) {
            return put(0xd2).bigEndian(value, 4);
        }
        return put(0xd3).bigEndian(value, 8);
    }

    MessagePackWriter string(String value) {
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        return (utf8.length < 32 ? put(0xa0 | utf8.length) : length(utf8.length, 0xd9)).bytes(utf8);
    }

    MessagePackWriter binary(byte[] value) {
        return length(value.length, 0xc4).bytes(value);
    }

    byte[] toByteArray() {
        return Arrays.copyOf(buffer, length);
    }

    /** A string's or binary's length in 8, 16 or 32 bits, after {@code eight} or the two types after it. */
    private MessagePackWriter length(int n, int eight) {
        if (n <= 0xff) {
            return put(eight).put(n);
        }
        return n <= 0xffff ? put(eight + 1).bigEndian(n, 2) : put(eight + 2).bigEndian(n, 4);
    }

    /** A map or array header: the fix form below 16 elements, else 16 or 32 bits. */
    private MessagePackWriter header(int count, int fix, int sixteen, int thirtyTwo) {
        if (count < 0) {
            throw new IllegalArgumentException("a negative count: " + count);
        }
        if (count < 16) {
            return put(fix | count);
        }
        return count <= 0xffff ? put(sixteen).bigEndian(count, 2) : put(thirtyTwo).bigEndian(count, 4);
    }

    private MessagePackWriter bigEndian(long value, int size) {
        room(size);
        for (int shift = (size - 1) * 8; shift >= 0; shift -= 8) {
            buffer[length++] = (byte) (value >>> shift);
        }
        return this;
    }

    private MessagePackWriter put(int b) {
        room(1);
        buffer[length++] = (byte) b;
        return this;
    }

    private MessagePackWriter bytes(byte[] value) {
        room(value.length);
        System.arraycopy(value, 0, buffer, length, value.length);
        length += value.length;
        return this;
    }

    private void room(int more) {
        if (buffer.length - length < more) {
            buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, Math.addExact(length, more)));
        }
    }
}
