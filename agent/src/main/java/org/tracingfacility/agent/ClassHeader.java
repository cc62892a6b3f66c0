package org.tracingfacility.agent;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The head of a class file, read only as far as its direct supertypes (JVMS 4.1: the constant
 * pool, {@code this_class}, {@code super_class}, {@code interfaces}): what the agent knows of a
 * class's hierarchy without loading anything. The native core checks the whole file; this only
 * must not throw on one it would refuse.
 */
final class ClassHeader {
    private ClassHeader() {
    }

    /**
     * The binary names of the class's direct supertypes, superclass first, then its interfaces;
     * empty for {@code java.lang.Object}, a module, or bytes that are not a class file.
     */
    static List<String> directSupertypes(byte[] classFile) {
        try {
            return read(classFile);
        } catch (IOException | RuntimeException e) {
            return List.of(); // not ours to judge: the core says what is wrong with it
        }
    }

    private static List<String> read(byte[] bytes) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
        if (in.readInt() != 0xCAFEBABE) {
            return List.of();
        }
        in.skipBytes(4); // minor and major version
        int count = in.readUnsignedShort();
        // Where each UTF-8 entry starts (its length), and which UTF-8 entry each Class entry names.
        int[] utf8At = new int[count];
        int[] classNames = new int[count];
        int at = 10;
        for (int i = 1; i < count; i++) {
            int tag = in.readUnsignedByte();
            at++;
            int size;
            switch (tag) {
                case 1: // Utf8
                    utf8At[i] = at;
                    size = 2 + in.readUnsignedShort();
                    in.skipBytes(size - 2);
                    at += size;
                    continue;
                case 7: // Class
                    classNames[i] = in.readUnsignedShort();
                    at += 2;
                    continue;
                case 8: case 16: case 19: case 20: // String, MethodType, Module, Package
                    size = 2;
                    break;
                case 15: // MethodHandle
                    size = 3;
                    break;
                case 3: case 4: case 9: case 10: case 11: case 12: case 17: case 18:
                    size = 4;
                    break;
                case 5: case 6: // Long, Double: two entries
                    size = 8;
                    i++;
                    break;
                default:
                    throw new IOException("constant pool tag " + tag);
            }
            in.skipBytes(size);
            at += size;
        }
        in.skipBytes(4); // access_flags, this_class
        List<String> supertypes = new ArrayList<>();
        int superClass = in.readUnsignedShort();
        if (superClass != 0) {
            supertypes.add(className(bytes, utf8At, classNames, superClass));
        }
        int interfaces = in.readUnsignedShort();
        for (int i = 0; i < interfaces; i++) {
            supertypes.add(className(bytes, utf8At, classNames, in.readUnsignedShort()));
        }
        return supertypes;
    }

    private static String className(byte[] bytes, int[] utf8At, int[] classNames, int index) throws IOException {
        int utf8 = classNames[index];
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes, utf8At[utf8], bytes.length));
        return in.readUTF().replace('/', '.'); // modified UTF-8, as class files hold it
    }
}
