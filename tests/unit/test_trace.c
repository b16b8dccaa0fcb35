/* The trace writers (src/trace) on a stream made by hand: the JSON text to
 * the byte (exact microseconds, escaping, flows), the Perfetto packets'
 * framing, and the API's errors: a bad type, a write error, a closed trace.
 * The JSON writer's buffered text is checked against printf and
 * nst_put_json_string() over many blocks, cached names and a huge one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "format/format.h"
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

/* ---- the JSON writer's buffer and name cache, against stdio ---------------------------- */

#define MANY 20000

/* ns as microseconds the plain way: printf on the integer parts. */
static void ref_us(FILE *fp, int64_t ns)
{
	unsigned long long a = ns < 0 ? 0ULL - (unsigned long long)ns : (unsigned long long)ns;
	fprintf(fp, "%s%llu.%03u", ns < 0 ? "-" : "", a / 1000, (unsigned)(a % 1000));
}

/* The slice event as printf and nst_put_json_string() write it. */
static void ref_slice(FILE *fp, const struct trace_slice *sl, bool first)
{
	fprintf(fp, "%s{\"ph\":\"X\",\"cat\":\"%s\",\"name\":", first ? "\n" : ",\n",
		trace_cat_names[sl->cat]);
	nst_put_json_string(fp, sl->name, strlen(sl->name));
	fprintf(fp, ",\"pid\":%lld,\"tid\":%lld,\"ts\":", (long long)sl->track->pid,
		(long long)sl->track->tid);
	ref_us(fp, sl->start);
	fputs(",\"dur\":", fp);
	ref_us(fp, sl->end - sl->start);
	fputs(",\"args\":{", fp);
	for (size_t i = 0; i < sl->nargs; i++) {
		const struct trace_arg *a = &sl->arg[i];
		fprintf(fp, "%s\"%s\":", i ? "," : "", trace_key_names[a->key]);
		if (a->kind == ARG_TEXT)
			nst_put_json_string(fp, a->s, strlen(a->s));
		else
			fprintf(fp, "%lld", (long long)a->i[0]);
	}
	fputs("}}", fp);
}

/* The i-th slice: names that repeat at one pointer, one pointer whose text
 * changes under it, a name far larger than a block; times of every sign. */
static void nth_slice(struct trace_slice *sl, size_t i, char *changing, const char *huge)
{
	static const char *const names[] = { "k<\"a\">", "cudaLaunchKernel", "\xc3\xa9t\xe9\t" };
	changing[0] = (char)('a' + i % 26);
	sl->name = i == MANY / 2 ? huge : i % 5 == 0 ? changing : names[i % 3];
	sl->start = (int64_t)(i * 7919) - 4000000;
	sl->end = sl->start + (int64_t)(i % 2000);
	sl->nargs = 2;
	sl->arg[0] = (struct trace_arg){ .key = KEY_CORRELATION, .kind = ARG_INT,
					 .i = { i % 3 ? (int64_t)i : INT64_MIN } };
	sl->arg[1] = (struct trace_arg){ .key = KEY_DOMAIN, .kind = ARG_TEXT, .s = names[i % 2] };
}

static void test_json_blocks(void **state)
{
	(void)state;
	size_t huge_len = 400 * 1024;
	char *huge = malloc(huge_len + 1), changing[] = "?\x01", *got = NULL, *want = NULL;
	size_t got_len, want_len;
	assert_non_null(huge);
	for (size_t i = 0; i < huge_len; i++)
		huge[i] = "\"\n\x80x"[i % 4];
	huge[huge_len] = '\0';
	FILE *fp = open_memstream(&got, &got_len), *ref = open_memstream(&want, &want_len);
	assert_non_null(fp);
	assert_non_null(ref);
	struct trace_writer w;
	struct nst_error err = { 0 };
	assert_int_equal(trace_chrome_json_new(fp, &w, &err), NST_OK);
	fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[", ref);
	int64_t lo = 0, hi = 0;
	for (size_t i = 0; i < MANY; i++) {
		struct trace_slice sl = { .track = &thread, .cat = (enum trace_cat)(i % CAT_COUNT) };
		nth_slice(&sl, i, changing, huge);
		assert_int_equal(w.slice(w.self, &sl, &err), NST_OK);
		ref_slice(ref, &sl, i == 0);
		lo = i == 0 || sl.start < lo ? sl.start : lo;
		hi = i == 0 || sl.end > hi ? sl.end : hi;
	}
	assert_int_equal(w.finish(w.self, &err), NST_OK);
	w.free(w.self);
	fputs(",\n{\"ph\":\"X\",\"cat\":\"Trace\",\"name\":\"nstats export\",\"pid\":0,\"tid\":0,\"ts\":", ref);
	ref_us(ref, lo < 0 ? lo : 0);
	fputs(",\"dur\":", ref);
	ref_us(ref, hi - (lo < 0 ? lo : 0));
	fputs("}\n],\n\"deviceProperties\":[]}\n", ref);
	fclose(fp);
	fclose(ref);
	assert_true(got_len > 4 * 256 * 1024);
	assert_int_equal(got_len, want_len);
	assert_memory_equal(got, want, got_len);
	free(got);
	free(want);
	free(huge);
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
		cmocka_unit_test(test_json_blocks),
		cmocka_unit_test(test_perfetto_framing),
		cmocka_unit_test(test_api_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
