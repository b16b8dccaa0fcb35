/* The trace writers (src/trace) on a stream made by hand: the JSON text to
 * the byte (exact microseconds, escaping, flows), the Perfetto packets'
 * framing, and the API's errors: a bad type, a write error, a closed trace. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "trace/trace.h"

static const struct trace_track thread = {
	.kind = TRACK_THREAD, .uuid = 2, .parent = 1, .pid = 42, .tid = 43, .name = "main \"x\"",
};

/* What w wrote for one track and one slice, NUL-terminated; free it. */
static char *written(enum nst_status (*make)(FILE *, struct trace_writer *, struct nst_error *),
		     const struct trace_slice *sl, size_t *len)
{
	char *buf = NULL;
	FILE *fp = open_memstream(&buf, len);
	struct trace_writer w;
	struct nst_error err = { 0 };
	assert_non_null(fp);
	assert_int_equal(make(fp, &w, &err), NST_OK);
	assert_int_equal(w.track(w.self, &thread, &err), NST_OK);
	assert_int_equal(w.slice(w.self, sl, &err), NST_OK);
	assert_int_equal(w.finish(w.self, &err), NST_OK);
	w.free(w.self);
	fclose(fp);
	return buf;
}

static void test_json_text(void **state)
{
	(void)state;
	struct trace_slice sl = {
		.track = &thread, .cat = CAT_API, .start = -1234, .end = 1000000007,
		.name = "cuda<\n>\xff", .nargs = 2, .flow = FLOW_START, .flow_id = 7,
		.arg = { { .key = KEY_CORRELATION, .kind = ARG_INT, .i = { -5 } },
			 { .key = KEY_GRID, .kind = ARG_DIM3, .i = { 1, 2, 3 } } },
	};
	size_t len;
	char *s = written(trace_chrome_json_new, &sl, &len);
	assert_string_equal(s,
		"{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n"
		"{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":42,\"tid\":43,\"args\":{\"name\":\"main \\\"x\\\"\"}},\n"
		"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cuda<\\n>\\ufffd\",\"pid\":42,\"tid\":43,"
		"\"ts\":-1.234,\"dur\":1000001.241,\"args\":{\"correlation\":-5,\"grid\":[1,2,3]}},\n"
		"{\"ph\":\"s\",\"id\":7,\"cat\":\"ac2g\",\"name\":\"ac2g\",\"pid\":42,\"tid\":43,\"ts\":-1.234},\n"
		"{\"ph\":\"X\",\"cat\":\"Trace\",\"name\":\"nstats export\",\"pid\":0,\"tid\":0,\"ts\":-1.234,"
		"\"dur\":1000001.241}\n"
		"],\n\"deviceProperties\":[]}\n");
	free(s);
}

/* Field 1 of Trace, a length, a packet: the framing, packet after packet. */
static void test_perfetto_framing(void **state)
{
	(void)state;
	struct trace_slice sl = { .track = &thread, .cat = CAT_KERNEL, .start = 5, .end = 9,
				  .name = "k", .flow = FLOW_END, .flow_id = 3 };
	size_t len, packets = 0;
	char *s = written(trace_perfetto_new, &sl, &len);
	const unsigned char *p = (const unsigned char *)s;
	for (size_t at = 0; at < len; packets++) {
		assert_int_equal(p[at++], 0x0A);
		uint64_t n = 0;
		for (int shift = 0;; shift += 7) {
			n |= (uint64_t)(p[at] & 0x7F) << shift;
			if (!(p[at++] & 0x80))
				break;
		}
		assert_true(at + n <= len);
		at += n;
	}
	assert_int_equal(packets, 4); /* interning, the track, BEGIN, END */
	free(s);
}

static void test_api_errors(void **state)
{
	(void)state;
	struct nst_trace *t = (struct nst_trace *)1;
	struct nst_error err = { 0 };
	assert_int_equal(nst_trace_open((enum nst_trace_type)9, stdout, &t, &err), NST_ERR_USAGE);
	assert_null(t);
	assert_int_equal(nst_trace_open(NST_TRACE_PERFETTO, NULL, &t, &err), NST_ERR_USAGE);
	nst_trace_free(NULL);
	FILE *full = fopen("/dev/full", "w");
	if (!full)
		skip();
	assert_int_equal(nst_trace_open(NST_TRACE_CHROME_JSON, full, &t, &err), NST_OK);
	assert_int_equal(nst_trace_close(t, &err), NST_ERR_IO);
	assert_string_equal(err.msg, "writing the trace failed: No space left on device");
	assert_int_equal(nst_trace_add(t, NULL, NULL, NULL, &err), NST_ERR_USAGE);
	nst_trace_free(t);
	fclose(full);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_text),
		cmocka_unit_test(test_perfetto_framing),
		cmocka_unit_test(test_api_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
