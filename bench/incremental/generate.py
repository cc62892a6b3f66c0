#!/usr/bin/env python3
"""Writes the sources of a generated project: N classes in packages of 100, one in
ten carrying a TF group annotation on the class and two of its methods, the rest
plain. `generate.py DIR N [VARIANT]`: VARIANT changes one constant in class 0 only,
so that compiling it again gives one changed class file."""
import os
import sys

out, count = sys.argv[1], int(sys.argv[2])
variant = int(sys.argv[3]) if len(sys.argv) > 3 else 0


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


write(f"{out}/gen/Traced.java",
      "package gen;\n"
      "import java.lang.annotation.*;\n"
      "import org.tracingfacility.annotation.MethodMonitorGroup;\n"
      "@Retention(RetentionPolicy.CLASS) @MethodMonitorGroup public @interface Traced {}\n")

for i in range(count):
    pkg = f"gen.p{i // 100:03d}"
    traced = i % 10 == 0
    mark = "@gen.Traced " if traced else ""
    constant = 7 + (variant if i == 0 else 0)
    write(f"{out}/{pkg.replace('.', '/')}/C{i:05d}.java", f"""package {pkg};

{mark}public class C{i:05d} {{
    private final java.util.List<String> names = new java.util.ArrayList<>();
    private long total;

    {mark}public int add(String name, int weight) {{
        names.add(name);
        total += weight * {constant};
        return names.size();
    }}

    {mark}public long total() {{
        if (total < 0) {{
            throw new IllegalStateException("negative total " + total);
        }}
        return total;
    }}

    public String describe() {{
        StringBuilder text = new StringBuilder("C{i:05d}[");
        for (String name : names) {{
            text.append(name).append(',');
        }}
        return text.append(']').toString();
    }}

    public static int parse(String text) {{
        try {{
            return Integer.parseInt(text.trim());
        }} catch (NumberFormatException e) {{
            return -1;
        }}
    }}
}}
""")
