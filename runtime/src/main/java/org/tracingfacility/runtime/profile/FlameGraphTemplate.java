package org.tracingfacility.runtime.profile;

/**
 * The flame graph page, {@link FlameGraphPage}'s template: HTML with inline style and script,
 * where {@code /*TF_TITLE*}{@code /} and {@code /*TF_PROFILE_DATA*}{@code /} are replaced.
 *
 * <p>A constant, not a resource file beside the class: under the agent, tf-runtime is on the
 * boot class path, appended at run time ({@code Instrumentation.appendToBootstrapClassLoaderSearch}),
 * and the JVM finds classes there but {@code Class.getResource} finds no resource (the boot
 * loader's resource path is fixed at start-up), so a resource would be "missing" exactly where
 * the agent writes {@code tf-profile.html}. Edit the page here; FlameGraphBrowserTest renders it.
 */
final class FlameGraphTemplate {
    static final String PAGE =
            "<!DOCTYPE html>\n" +
            "<html lang=\"en\">\n" +
            "<head>\n" +
            "<meta charset=\"utf-8\">\n" +
            "<title>/*TF_TITLE*/</title>\n" +
            "<style>\n" +
            "  body { font: 12px system-ui, sans-serif; margin: 16px; color: #222; }\n" +
            "  h1 { font-size: 16px; margin: 0 0 4px; }\n" +
            "  #details { height: 18px; margin: 4px 0 8px; white-space: nowrap; overflow: hidden; }\n" +
            "  #graph { position: relative; width: 100%; }\n" +
            "  .frame { position: absolute; height: 17px; box-sizing: border-box; border: 1px solid #fff;\n" +
            "           overflow: hidden; white-space: nowrap; text-overflow: ellipsis; padding: 1px 3px;\n" +
            "           cursor: pointer; font: 11px monospace; line-height: 14px; }\n" +
            "  .frame:hover { border-color: #000; }\n" +
            "</style>\n" +
            "</head>\n" +
            "<body>\n" +
            "<h1>/*TF_TITLE*/</h1>\n" +
            "<div id=\"legend\"></div>\n" +
            "<div id=\"details\"></div>\n" +
            "<div id=\"graph\"></div>\n" +
            "<script>\n" +
            "\"use strict\";\n" +
            "// The profile: n = name, c = calls, k = children; i and e = inclusive and exclusive ns,\n" +
            "// or, where the root's u is \"calls\" (calls counted, not timed), calls with those below and calls.\n" +
            "const profile = /*TF_PROFILE_DATA*/;\n" +
            "const COUNTED = profile.u === \"calls\";\n" +
            "const ROW = 18;\n" +
            "document.getElementById(\"legend\").textContent = COUNTED\n" +
            "  ? \"Width: calls, those below included. Hover for calls; click to zoom in, click the bottom frame to zoom out.\"\n" +
            "  : \"Width: inclusive time. Hover for calls, inclusive and exclusive time; click to zoom in, click the bottom frame to zoom out.\";\n" +
            "\n" +
            "function depthOf(node) {\n" +
            "  let deepest = 0;\n" +
            "  for (const child of node.k) deepest = Math.max(deepest, depthOf(child));\n" +
            "  return deepest + 1;\n" +
            "}\n" +
            "\n" +
            "function ms(nanos) {\n" +
            "  return (nanos / 1e6).toFixed(3) + \" ms\";\n" +
            "}\n" +
            "\n" +
            "// The box shows Class.method (the title has the package): the last two names before any\n" +
            "// parameter types, which may hold dots of their own.\n" +
            "function label(name) {\n" +
            "  const paren = name.indexOf(\"(\");\n" +
            "  const head = paren < 0 ? name : name.substring(0, paren);\n" +
            "  const parts = head.split(\".\");\n" +
            "  return parts.slice(-2).join(\".\") + (paren < 0 ? \"\" : name.substring(paren));\n" +
            "}\n" +
            "\n" +
            "function colour(name) {\n" +
            "  let hash = 0;\n" +
            "  for (let i = 0; i < name.length; i++) hash = (hash * 31 + name.charCodeAt(i)) | 0;\n" +
            "  const h = 10 + Math.abs(hash) % 45;\n" +
            "  return \"hsl(\" + h + \", 85%, \" + (55 + Math.abs(hash >> 8) % 15) + \"%)\";\n" +
            "}\n" +
            "\n" +
            "function render(focus, path) {\n" +
            "  const graph = document.getElementById(\"graph\");\n" +
            "  const details = document.getElementById(\"details\");\n" +
            "  graph.textContent = \"\";\n" +
            "  const total = Math.max(focus.i, 1);\n" +
            "  // The frames below the focus (its ancestors), full width, so it can be left again.\n" +
            "  path.forEach((ancestor, level) => place(ancestor, level, 0, total, total, path.slice(0, level), true));\n" +
            "  const base = path.length;\n" +
            "  graph.style.height = (depthOf(focus) + base) * ROW + \"px\";\n" +
            "  draw(focus, base, 0, total, path);\n" +
            "\n" +
            "  function draw(node, level, start, width, ancestors) {\n" +
            "    place(node, level, start, width, total, ancestors, false);\n" +
            "    let offset = start;\n" +
            "    for (const child of node.k) {\n" +
            "      draw(child, level + 1, offset, child.i, ancestors.concat([node]));\n" +
            "      offset += child.i;\n" +
            "    }\n" +
            "  }\n" +
            "\n" +
            "  function place(node, level, start, width, whole, ancestors, isAncestor) {\n" +
            "    if (width / whole < 0.001) return;\n" +
            "    const box = document.createElement(\"div\");\n" +
            "    box.className = \"frame\";\n" +
            "    box.dataset.name = node.n;\n" +
            "    box.textContent = label(node.n);\n" +
            "    box.style.left = (100 * start / whole) + \"%\";\n" +
            "    box.style.width = (100 * width / whole) + \"%\";\n" +
            "    box.style.bottom = (level * ROW) + \"px\";\n" +
            "    box.style.background = node === profile ? \"#ddd\" : colour(node.n);\n" +
            "    const text = node.n + \" \\u2014 \" + (COUNTED\n" +
            "      ? node.c + \" calls, \" + node.i + \" with those below\"\n" +
            "      : node.c + \" calls, \" + ms(node.i) + \" inclusive, \" + ms(node.e) + \" exclusive\");\n" +
            "    box.title = text;\n" +
            "    box.onmouseenter = () => { details.textContent = text; };\n" +
            "    box.onclick = () => render(node, ancestors);\n" +
            "    graph.appendChild(box);\n" +
            "  }\n" +
            "}\n" +
            "\n" +
            "render(profile, []);\n" +
            "</script>\n" +
            "</body>\n" +
            "</html>\n";

    private FlameGraphTemplate() {
    }
}
