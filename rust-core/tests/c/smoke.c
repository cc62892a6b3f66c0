/* A C caller of tf-core: builds a MessagePack request by hand, checks the
 * status codes and frees the buffers. Usage: smoke CLASS_DIR */
#include "tf_core.h"
#include <stdio.h>
#include <string.h>

static size_t put_str(uint8_t *p, const char *s) {
    size_t n = strlen(s);
    p[0] = 0xd9; /* str 8 */
    p[1] = (uint8_t)n;
    memcpy(p + 2, s, n);
    return n + 2;
}

int main(int argc, char **argv) {
    if (argc != 2 || strlen(argv[1]) > 200) return 64;
    uint8_t request[512];
    size_t n = 0;
    request[n++] = 0x82; /* map of 2 */
    n += put_str(request + n, "format_version");
    request[n++] = 0x01;
    n += put_str(request + n, "class_dir");
    n += put_str(request + n, argv[1]);

    TfBuffer out;
    TfStatus status = tf_enhance(request, n, &out);
    /* A report is a MessagePack map: fixmap (0x8N) or map 16 (0xde). */
    int report_is_map = out.len > 0 && ((out.data[0] & 0xf0) == 0x80 || out.data[0] == 0xde);
    printf("status=%d report_is_map=%d\n", (int)status, report_is_map);
    tf_buffer_free(out);

    const uint8_t garbage[] = {0xc1};
    status = tf_enhance(garbage, sizeof garbage, &out);
    printf("status=%d message=%.*s\n", (int)status, (int)out.len, (const char *)out.data);
    tf_buffer_free(out);

    printf("null=%d\n", (int)tf_enhance(NULL, 0, &out));
    return 0;
}
