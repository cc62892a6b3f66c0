package org.tracingfacility.core;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads MessagePack from a byte array: the values reports use (maps, arrays, strings,
 * booleans, integers in any width, nil, binary), and skips any other value whole (floats,
 * extensions, nested maps), so that a newer core's report still reads. Every failure is an
 * {@link IOException} naming the byte offset and what was found there. Hand-written for the
 * reason {@link MessagePackWriter} gives.
 */
final class MessagePackReader {
    private final byte[] bytes;
    private int position;

    MessagePackReader(byte[] bytes) {
        this.bytes = bytes;
    }

    int mapHeader() throws IOException {
        return header(0x80, 0xde, "a map");
    }

    int arrayHeader() throws IOException {
        return header(0x90, 0xdc, "an array");
    }

    /** A map's or array's count: its fix form ({@code fix} | count), or 16 and 32 bits after its type. */
    private int header(int fix, int sixteen, String what) throws IOException {
        int type = peek();
        if ((type & 0xf0) == fix) {
            position++;
            return type & 0x0f;
        }
        if (type == sixteen || type == sixteen + 1) {
            position++;
            return count(type == sixteen ? 2 : 4);
        }
        throw unexpected(what);
    }

    /** True, and the nil read, when the next value is nil. */
    boolean tryNil() throws IOException {
        if (peek() == 0xc0) {
            position++;
            return true;
        }
        return false;
    }

    boolean bool() throws IOException {
        int type = peek();
        if (type == 0xc2 || type == 0xc3) {
            position++;
            return type == 0xc3;
        }
        throw unexpected("a boolean");
    }

    long integer() throws IOException {
        int type = peek();
        if (type <= 0x7f || type >= 0xe0) {
            position++;
            return (byte) type;
        }
        switch (type) {
            case 0xcc: position++; return unsigned(1);
            case 0xcd: position++; return unsigned(2);
            case 0xce: position++; return unsigned(4);
            case 0xcf: {
                position++;
                long value = unsigned(8);
                if (value < 0) {
                    position -= 9;
                    throw unexpected("an integer that fits 64 signed bits");
                }
                return value;
            }
            case 0xd0: position++; return (byte) unsigned(1);
            case 0xd1: position++; return (short) unsigned(2);
            case 0xd2: position++; return (int) unsigned(4);
            case 0xd3: position++; return unsigned(8);
            default: throw unexpected("an integer");
        }
    }

    /** An integer that must fit an {@code int}. */
    int intValue() throws IOException {
        int at = position;
        long value = integer();
        if (value != (int) value) {
            throw new IOException("at byte " + at + ": " + value + " does not fit a 32-bit int");
        }
        return (int) value;
    }

    String string() throws IOException {
        int type = peek();
        int length;
        if ((type & 0xe0) == 0xa0) {
            position++;
            length = type & 0x1f;
        } else if (type == 0xd9 || type == 0xda || type == 0xdb) {
            position++;
            length = count(type == 0xd9 ? 1 : type == 0xda ? 2 : 4);
        } else {
            throw unexpected("a string");
        }
        String value = new String(bytes, position, need(length), StandardCharsets.UTF_8);
        position += length;
        return value;
    }

    byte[] binary() throws IOException {
        int type = peek();
        if (type != 0xc4 && type != 0xc5 && type != 0xc6) {
            throw unexpected("binary");
        }
        position++;
        int length = count(type == 0xc4 ? 1 : type == 0xc5 ? 2 : 4);
        byte[] value = Arrays.copyOfRange(bytes, position, position + need(length));
        position += length;
        return value;
    }

    /** Skips the next value, whatever it is, containers with everything in them. */
    void skipValue() throws IOException {
        long pending = 1;
        while (pending-- > 0) {
            int type = peek();
            position++;
            if (type <= 0x7f || type >= 0xe0 || type == 0xc0 || type == 0xc2 || type == 0xc3) {
                continue;
            }
            if ((type & 0xf0) == 0x80) {
                pending += 2L * (type & 0x0f);
            } else if ((type & 0xf0) == 0x90) {
                pending += type & 0x0f;
            } else if ((type & 0xe0) == 0xa0) {
                skip(type & 0x1f);
            } else {
                pending += skipSized(type);
            }
        }
    }

    /** Skips the payload of a value whose type byte was read; the values it contains, if any. */
    private long skipSized(int type) throws IOException {
        switch (type) {
            case 0xc4: case 0xd9: skip(count(1)); return 0;
            case 0xc5: case 0xda: skip(count(2)); return 0;
            case 0xc6: case 0xdb: skip(count(4)); return 0;
            case 0xcc: case 0xd0: skip(1); return 0;
            case 0xcd: case 0xd1: skip(2); return 0;
            case 0xca: case 0xce: case 0xd2: skip(4); return 0;
            case 0xcb: case 0xcf: case 0xd3: skip(8); return 0;
            case 0xd4: skip(2); return 0;
            case 0xd5: skip(3); return 0;
            case 0xd6: skip(5); return 0;
            case 0xd7: skip(9); return 0;
            case 0xd8: skip(17); return 0;
            case 0xc7: skip(count(1) + 1); return 0;
            case 0xc8: skip(count(2) + 1); return 0;
            case 0xc9: skip(count(4) + 1); return 0;
            case 0xdc: return count(2);
            case 0xdd: return count(4);
            case 0xde: return 2L * count(2);
            case 0xdf: return 2L * count(4);
            default:
                position--;
                throw unexpected("a MessagePack value");
        }
    }

    /** A big-endian length or count of {@code size} bytes, which must fit an {@code int}. */
    private int count(int size) throws IOException {
        int at = position;
        long value = unsigned(size);
        if (value > Integer.MAX_VALUE) {
            throw new IOException("at byte " + at + ": a length of " + value + " bytes or elements");
        }
        return (int) value;
    }

    private long unsigned(int size) throws IOException {
        need(size);
        long value = 0;
        for (int i = 0; i < size; i++) {
            value = value << 8 | (bytes[position++] & 0xff);
        }
        return value;
    }

    private void skip(int length) throws IOException {
        position += need(length);
    }

    /** {@code length}, once sure that many bytes follow. */
    private int need(int length) throws IOException {
        if (length < 0 || bytes.length - position < length) {
            throw new IOException("at byte " + position + ": " + length + " bytes expected, "
                    + (bytes.length - position) + " left");
        }
        return length;
    }

    private int peek() throws IOException {
        if (position >= bytes.length) {
            throw new IOException("at byte " + position + ": the message ends where a value was expected");
        }
        return bytes[position] & 0xff;
    }

    private IOException unexpected(String expected) {
        return new IOException("at byte " + position + ": expected " + expected + ", found type byte 0x"
                + Integer.toHexString(bytes[position] & 0xff));
    }
}
