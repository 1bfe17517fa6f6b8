/* SPDX-License-Identifier: MIT */
/*
 * The passes over a provider header (see <tracekit/tracepoint.h>). A provider header includes
 * this file last, inside its own guard; it then reads the header again, once per pass, with
 * TK_TRACEPOINT_HEADER_MULTI_READ defined, each pass giving the declaration macros and field
 * macros another meaning:
 *
 *   1. declarations   every file: the events' descriptions, extern (hidden)
 *   2. code           every file: for each structure a function that measures (mode 0) or
 *                     writes (mode 1) its fields; for each event tk_tp_emit_PROV__NAME(),
 *                     which loads `enabled` once, measures the payload, and for bit 0
 *                     reserves it in the thread's ring, stores it and commits, for bit 1
 *                     stores it into the EventHeader scratch and calls tk_ust_eh_emit()
 *   3. fixed sizes    TK_TRACEPOINT_DEFINE only: the payload size of each event and structure
 *                     (an enum constant), TK_TP_VAR_SIZE or more when it varies
 *   4. descriptions   TK_TRACEPOINT_DEFINE only: enum label tables, field tables, events
 *   5. provider       TK_TRACEPOINT_DEFINE only: the event list, the provider, and the
 *                     constructor and destructor that register it
 *
 * The code of pass 2 names each field twice, once per mode, in one function: the mode is a
 * constant, so the compiler keeps only one branch of each field in each copy.
 */
#if defined(TK_TRACEPOINT_INCLUDE) && !defined(TK_TRACEPOINT_HEADER_MULTI_READ)
#define TK_TRACEPOINT_HEADER_MULTI_READ

#if defined(__GNUC__)
#define TK_TP_HIDDEN __attribute__((visibility("hidden")))
#else
#define TK_TP_HIDDEN
#endif

#ifdef __cplusplus
#define TK_TP_NULL 0
#else
#define TK_TP_NULL ((void *) 0)
#endif

#define TK_TP_IS_SIGNED(type) ((type) -1 < (type) 1)
/* A field whose size varies adds this to the fixed size, which then says "variable". */
#define TK_TP_VAR_SIZE 0x100000
#define TK_TP_CLAMP(x) ((x) >= TK_TP_VAR_SIZE ? TK_TP_VAR_SIZE : (x))

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wunused-function"
#endif

/* ---- pass 1: declarations ------------------------------------------------------------------ */

#undef TK_TRACEPOINT_EVENT
#undef TK_TRACEPOINT_STRUCT
#undef TK_TRACEPOINT_ENUM
#define TK_TRACEPOINT_EVENT(prov, name, args, level, keyword, fields)                              \
	extern TK_TP_HIDDEN struct tk_tp_event TK_TP_EVENT_SYM(prov, name);
#define TK_TRACEPOINT_STRUCT(prov, name, args, fields)
#define TK_TRACEPOINT_ENUM(prov, name, entries)

#ifdef __cplusplus
extern "C" {
#endif
#include TK_TRACEPOINT_INCLUDE
#ifdef __cplusplus
}
#endif

/* ---- pass 2: code -------------------------------------------------------------------------- */

#undef TK_TRACEPOINT_EVENT
#undef TK_TRACEPOINT_STRUCT
#define TK_TRACEPOINT_STRUCT(prov, name, args, fields)                                             \
	static inline size_t tk_tp_st_##prov##__##name(int tk_m_, uint8_t **tk_pp_, args)          \
	{                                                                                          \
		size_t tk_sz_ = 0;                                                                 \
		uint8_t *tk_p_ = *tk_pp_;                                                          \
                                                                                                   \
		fields;                                                                            \
		*tk_pp_ = tk_p_;                                                                   \
		return tk_sz_;                                                                     \
	}
#define TK_TRACEPOINT_EVENT(prov, name, args, level, keyword, fields)                              \
	static inline void tk_tp_emit_##prov##__##name(args)                                       \
	{                                                                                          \
		int tk_en_ =                                                                       \
			__atomic_load_n(&TK_TP_EVENT_SYM(prov, name).enabled, __ATOMIC_RELAXED);   \
		size_t tk_sz_ = 0;                                                                 \
		uint8_t *tk_p_ = 0;                                                                \
                                                                                                   \
		{                                                                                  \
			const int tk_m_ = 0;                                                       \
                                                                                                   \
			(void) tk_m_;                                                              \
			fields;                                                                    \
		}                                                                                  \
		if (TK_LIKELY(tk_en_ & TK_TP_ENABLED_CTF)) {                                       \
			tk_p_ = tk_ust_reserve(&TK_TP_EVENT_SYM(prov, name), tk_sz_);              \
			if (tk_p_) {                                                               \
				const int tk_m_ = 1;                                               \
                                                                                                   \
				(void) tk_m_;                                                      \
				fields;                                                            \
				tk_ust_commit(tk_p_);                                              \
			}                                                                          \
		}                                                                                  \
		if (TK_UNLIKELY(tk_en_ & TK_TP_ENABLED_EH)) {                                      \
			uint8_t *tk_b_ = tk_ust_eh_buf(tk_sz_);                                    \
                                                                                                   \
			if (tk_b_) {                                                               \
				const int tk_m_ = 1;                                               \
                                                                                                   \
				(void) tk_m_;                                                      \
				tk_p_ = tk_b_;                                                     \
				fields;                                                            \
				tk_ust_eh_emit(&TK_TP_EVENT_SYM(prov, name), tk_b_, tk_sz_);       \
			}                                                                          \
		}                                                                                  \
	}

#define TK_TP_PUT_SCALAR(type, expr)                                                               \
	{                                                                                          \
		if (tk_m_ == 0) {                                                                  \
			tk_sz_ += sizeof(type);                                                    \
		} else {                                                                           \
			type tk_v_ = (type) (expr);                                                \
			memcpy(tk_p_, &tk_v_, sizeof(type));                                       \
			tk_p_ += sizeof(type);                                                     \
		}                                                                                  \
	}
#define TK_TP_PUT_COUNTED(expr, len, unit)                                                         \
	{                                                                                          \
		if (tk_m_ == 0) {                                                                  \
			tk_sz_ += 4 + (size_t) (uint32_t) (len) * (unit);                          \
		} else {                                                                           \
			uint32_t tk_l_ = (uint32_t) (len);                                         \
			tk_p_ = tk_tp_put_u32(tk_p_, tk_l_);                                       \
			if (tk_l_)                                                                 \
				memcpy(tk_p_, (expr), (size_t) tk_l_ *(unit));                     \
			tk_p_ += (size_t) tk_l_ * (unit);                                          \
		}                                                                                  \
	}

#define tk_field_int(type, name, expr)		  TK_TP_PUT_SCALAR(type, expr)
#define tk_field_hex(type, name, expr)		  TK_TP_PUT_SCALAR(type, expr)
#define tk_field_pointer(name, expr)		  TK_TP_PUT_SCALAR(uintptr_t, expr)
#define tk_field_errno(name, expr)		  TK_TP_PUT_SCALAR(int, expr)
#define tk_field_time(name, expr)		  TK_TP_PUT_SCALAR(uint64_t, expr)
#define tk_field_float(type, name, expr)	  TK_TP_PUT_SCALAR(type, expr)
#define tk_field_bool(name, expr)		  TK_TP_PUT_SCALAR(uint8_t, (expr) ? 1 : 0)
#define tk_field_enum(prov, en, type, name, expr) TK_TP_PUT_SCALAR(type, expr)
#define tk_field_string(name, expr)                                                                \
	{                                                                                          \
		if (tk_m_ == 0) {                                                                  \
			tk_sz_ += tk_tp_strlen(expr) + 1;                                          \
		} else {                                                                           \
			const char *tk_s_ = (expr);                                                \
			tk_p_ = tk_tp_put_text(tk_p_, tk_s_, tk_tp_strlen(tk_s_));                 \
		}                                                                                  \
	}
#define tk_field_counted_string(name, expr, len)   TK_TP_PUT_COUNTED(expr, len, 1)
#define tk_field_pid(name, expr)		   TK_TP_PUT_SCALAR(int32_t, expr)
#define tk_field_time_sec(name, expr)		   TK_TP_PUT_SCALAR(int64_t, expr)
#define tk_field_ipv4(name, expr)		   TK_TP_PUT_SCALAR(uint32_t, expr)
#define tk_field_port(name, expr)		   TK_TP_PUT_SCALAR(uint16_t, expr)
#define tk_field_uuid(name, expr)		   tk_field_array(uint8_t, name, expr, 16)
#define tk_field_ipv6(name, expr)		   tk_field_array(uint8_t, name, expr, 16)
#define tk_field_bytes16(name, expr)		   tk_field_array(uint8_t, name, expr, 16)
#define tk_field_latin1_string(name, expr)	   tk_field_string(name, expr)
#define tk_field_bom_string(name, expr)		   tk_field_string(name, expr)
#define tk_field_xml_string(name, expr)		   tk_field_string(name, expr)
#define tk_field_json_string(name, expr)	   tk_field_string(name, expr)
#define tk_field_counted_string16(name, expr, len) TK_TP_PUT_COUNTED(expr, len, 2)
#define tk_field_counted_string32(name, expr, len) TK_TP_PUT_COUNTED(expr, len, 4)
#define tk_field_string16(name, expr)		   TK_TP_PUT_WTEXT(expr, 2)
#define tk_field_string32(name, expr)		   TK_TP_PUT_WTEXT(expr, 4)
#define TK_TP_PUT_WTEXT(expr, unit)                                                                \
	{                                                                                          \
		if (tk_m_ == 0) {                                                                  \
			tk_sz_ += 4 + (tk_tp_wstrlen((expr), (unit)) + 1) * (unit);                \
		} else {                                                                           \
			const void *tk_s_ = (expr);                                                \
			tk_p_ = tk_tp_put_wtext(tk_p_, tk_s_, tk_tp_wstrlen(tk_s_, (unit)),        \
						(unit));                                           \
		}                                                                                  \
	}
#define tk_field_blob(name, expr, len)		 TK_TP_PUT_COUNTED(expr, len, 1)
#define tk_field_sequence(type, name, expr, len) TK_TP_PUT_COUNTED(expr, len, sizeof(type))
#define tk_field_array(type, name, expr, n)                                                        \
	{                                                                                          \
		if (tk_m_ == 0) {                                                                  \
			tk_sz_ += sizeof(type) * (n);                                              \
		} else {                                                                           \
			memcpy(tk_p_, (expr), sizeof(type) * (n));                                 \
			tk_p_ += sizeof(type) * (n);                                               \
		}                                                                                  \
	}
#define tk_field_struct(prov, st, name, ...)                                                       \
	{                                                                                          \
		tk_sz_ += tk_tp_st_##prov##__##st(tk_m_, &tk_p_, __VA_ARGS__);                     \
	}

#ifdef __cplusplus
extern "C" {
#endif
#include TK_TRACEPOINT_INCLUDE
#ifdef __cplusplus
}
#endif

#undef TK_TP_PUT_SCALAR
#undef TK_TP_PUT_COUNTED
#undef TK_TP_PUT_WTEXT
#undef tk_field_int
#undef tk_field_hex
#undef tk_field_pointer
#undef tk_field_errno
#undef tk_field_time
#undef tk_field_float
#undef tk_field_bool
#undef tk_field_enum
#undef tk_field_string
#undef tk_field_counted_string
#undef tk_field_blob
#undef tk_field_sequence
#undef tk_field_array
#undef tk_field_struct
#undef tk_field_pid
#undef tk_field_time_sec
#undef tk_field_ipv4
#undef tk_field_port
#undef tk_field_uuid
#undef tk_field_ipv6
#undef tk_field_bytes16
#undef tk_field_latin1_string
#undef tk_field_bom_string
#undef tk_field_xml_string
#undef tk_field_json_string
#undef tk_field_counted_string16
#undef tk_field_counted_string32
#undef tk_field_string16
#undef tk_field_string32

#ifdef TK_TRACEPOINT_DEFINE

#ifndef TK_TRACEPOINT_PROVIDER
#error "define TK_TRACEPOINT_PROVIDER (the provider's name) in the provider header"
#endif

/* ---- pass 3: fixed sizes ------------------------------------------------------------------- */

#undef TK_TRACEPOINT_EVENT
#undef TK_TRACEPOINT_STRUCT
#define TK_TRACEPOINT_STRUCT(prov, name, args, fields)                                             \
	enum { tk_tp_sfx_##prov##__##name = TK_TP_CLAMP(0 fields) };
#define TK_TRACEPOINT_EVENT(prov, name, args, level, keyword, fields)                              \
	enum { tk_tp_fx_##prov##__##name = TK_TP_CLAMP(0 fields) };

#define tk_field_int(type, name, expr)		   +(int) sizeof(type)
#define tk_field_hex(type, name, expr)		   +(int) sizeof(type)
#define tk_field_pointer(name, expr)		   +(int) sizeof(uintptr_t)
#define tk_field_errno(name, expr)		   +(int) sizeof(int)
#define tk_field_time(name, expr)		   +8
#define tk_field_float(type, name, expr)	   +(int) sizeof(type)
#define tk_field_bool(name, expr)		   +1
#define tk_field_enum(prov, en, type, name, expr)  +(int) sizeof(type)
#define tk_field_string(name, expr)		   +TK_TP_VAR_SIZE
#define tk_field_counted_string(name, expr, len)   +TK_TP_VAR_SIZE
#define tk_field_pid(name, expr)		   +4
#define tk_field_time_sec(name, expr)		   +8
#define tk_field_ipv4(name, expr)		   +4
#define tk_field_port(name, expr)		   +2
#define tk_field_uuid(name, expr)		   +16
#define tk_field_ipv6(name, expr)		   +16
#define tk_field_bytes16(name, expr)		   +16
#define tk_field_latin1_string(name, expr)	   +TK_TP_VAR_SIZE
#define tk_field_bom_string(name, expr)		   +TK_TP_VAR_SIZE
#define tk_field_xml_string(name, expr)		   +TK_TP_VAR_SIZE
#define tk_field_json_string(name, expr)	   +TK_TP_VAR_SIZE
#define tk_field_counted_string16(name, expr, len) +TK_TP_VAR_SIZE
#define tk_field_counted_string32(name, expr, len) +TK_TP_VAR_SIZE
#define tk_field_string16(name, expr)		   +TK_TP_VAR_SIZE
#define tk_field_string32(name, expr)		   +TK_TP_VAR_SIZE
#define tk_field_blob(name, expr, len)		   +TK_TP_VAR_SIZE
#define tk_field_sequence(type, name, expr, len)   +TK_TP_VAR_SIZE
#define tk_field_array(type, name, expr, n)	   +TK_TP_CLAMP((int) sizeof(type) * (int) (n))
#define tk_field_struct(prov, st, name, ...)	   +tk_tp_sfx_##prov##__##st

#include TK_TRACEPOINT_INCLUDE

#undef tk_field_int
#undef tk_field_hex
#undef tk_field_pointer
#undef tk_field_errno
#undef tk_field_time
#undef tk_field_float
#undef tk_field_bool
#undef tk_field_enum
#undef tk_field_string
#undef tk_field_counted_string
#undef tk_field_blob
#undef tk_field_sequence
#undef tk_field_array
#undef tk_field_struct
#undef tk_field_pid
#undef tk_field_time_sec
#undef tk_field_ipv4
#undef tk_field_port
#undef tk_field_uuid
#undef tk_field_ipv6
#undef tk_field_bytes16
#undef tk_field_latin1_string
#undef tk_field_bom_string
#undef tk_field_xml_string
#undef tk_field_json_string
#undef tk_field_counted_string16
#undef tk_field_counted_string32
#undef tk_field_string16
#undef tk_field_string32

/* ---- pass 4: descriptions ------------------------------------------------------------------ */

#undef TK_TRACEPOINT_EVENT
#undef TK_TRACEPOINT_STRUCT
#undef TK_TRACEPOINT_ENUM
#define TK_TRACEPOINT_ENUM(prov, name, entries)                                                    \
	static const struct tk_tp_enum_entry tk_tp_ee_##prov##__##name[] = {                       \
		entries{TK_TP_NULL, 0, 0}};                                                        \
	static const struct tk_tp_enum tk_tp_enum_##prov##__##name = {                             \
		#name, tk_tp_ee_##prov##__##name,                                                  \
		(uint32_t) (sizeof(tk_tp_ee_##prov##__##name) /                                    \
				    sizeof(tk_tp_ee_##prov##__##name[0]) -                         \
			    1)};
#define TK_TRACEPOINT_STRUCT(prov, name, args, fields)                                             \
	static const struct tk_tp_field tk_tp_sf_##prov##__##name[] = {                            \
		fields{TK_TP_NULL, 0, 0, 0, 0, 0, TK_TP_NULL, TK_TP_NULL}};                        \
	static const struct tk_tp_struct tk_tp_struct_##prov##__##name = {                         \
		#name, tk_tp_sf_##prov##__##name,                                                  \
		(uint32_t) (sizeof(tk_tp_sf_##prov##__##name) /                                    \
				    sizeof(tk_tp_sf_##prov##__##name[0]) -                         \
			    1)};
#define TK_TRACEPOINT_EVENT(prov, name, args, level, keyword, fields)                              \
	static const struct tk_tp_field tk_tp_f_##prov##__##name[] = {                             \
		fields{TK_TP_NULL, 0, 0, 0, 0, 0, TK_TP_NULL, TK_TP_NULL}};                        \
	TK_TP_HIDDEN struct tk_tp_event TK_TP_EVENT_SYM(prov, name) = {                            \
		0,                                                                                 \
		0,                                                                                 \
		#prov,                                                                             \
		#name,                                                                             \
		(uint8_t) (level),                                                                 \
		(uint64_t) (keyword),                                                              \
		tk_tp_f_##prov##__##name,                                                          \
		(uint32_t) (sizeof(tk_tp_f_##prov##__##name) /                                     \
				    sizeof(tk_tp_f_##prov##__##name[0]) -                          \
			    1),                                                                    \
		tk_tp_fx_##prov##__##name >= TK_TP_VAR_SIZE                                        \
			? TK_TP_SIZE_VARIABLE                                                      \
			: (uint32_t) tk_tp_fx_##prov##__##name,                                    \
	};

#define tk_enum_value(label, v)	     {label, (uint64_t) (v), (uint64_t) (v)},
#define tk_enum_range(label, lo, hi) {label, (uint64_t) (lo), (uint64_t) (hi)},

#define TK_TP_FD(name, kind, format, size, sgn, count, en, st)                                     \
	{name, kind, format, (uint8_t) (size), (uint8_t) (sgn), (uint32_t) (count), en, st},
#define tk_field_int(type, name, expr)                                                             \
	TK_TP_FD(#name, TK_TP_KIND_INT, TK_TP_FORMAT_DEFAULT, sizeof(type), TK_TP_IS_SIGNED(type), \
		 0, TK_TP_NULL, TK_TP_NULL)
#define tk_field_hex(type, name, expr)                                                             \
	TK_TP_FD(#name, TK_TP_KIND_INT, TK_TP_FORMAT_HEX, sizeof(type), TK_TP_IS_SIGNED(type), 0,  \
		 TK_TP_NULL, TK_TP_NULL)
#define tk_field_pointer(name, expr)                                                               \
	TK_TP_FD(#name, TK_TP_KIND_INT, TK_TP_FORMAT_POINTER, sizeof(uintptr_t), 0, 0, TK_TP_NULL, \
		 TK_TP_NULL)
#define tk_field_errno(name, expr)                                                                 \
	TK_TP_FD(#name, TK_TP_KIND_INT, TK_TP_FORMAT_ERRNO, sizeof(int), 1, 0, TK_TP_NULL,         \
		 TK_TP_NULL)
#define tk_field_time(name, expr)                                                                  \
	TK_TP_FD(#name, TK_TP_KIND_INT, TK_TP_FORMAT_TIME, 8, 0, 0, TK_TP_NULL, TK_TP_NULL)
#define tk_field_float(type, name, expr)                                                           \
	TK_TP_FD(#name, TK_TP_KIND_FLOAT, TK_TP_FORMAT_DEFAULT, sizeof(type), 1, 0, TK_TP_NULL,    \
		 TK_TP_NULL)
#define tk_field_bool(name, expr)                                                                  \
	TK_TP_FD(#name, TK_TP_KIND_BOOL, TK_TP_FORMAT_DEFAULT, 1, 0, 0, TK_TP_NULL, TK_TP_NULL)
#define tk_field_enum(prov, en, type, name, expr)                                                  \
	TK_TP_FD(#name, TK_TP_KIND_ENUM, TK_TP_FORMAT_DEFAULT, sizeof(type),                       \
		 TK_TP_IS_SIGNED(type), 0, &tk_tp_enum_##prov##__##en, TK_TP_NULL)
#define tk_field_string(name, expr)                                                                \
	TK_TP_FD(#name, TK_TP_KIND_STRING, TK_TP_FORMAT_DEFAULT, 0, 0, 0, TK_TP_NULL, TK_TP_NULL)
#define tk_field_counted_string(name, expr, len)                                                   \
	TK_TP_FD(#name, TK_TP_KIND_COUNTED, TK_TP_FORMAT_DEFAULT, 1, 0, 0, TK_TP_NULL, TK_TP_NULL)
#define tk_field_blob(name, expr, len)                                                             \
	TK_TP_FD(#name, TK_TP_KIND_BLOB, TK_TP_FORMAT_HEX, 1, 0, 0, TK_TP_NULL, TK_TP_NULL)
#define tk_field_sequence(type, name, expr, len)                                                   \
	TK_TP_FD(#name, TK_TP_KIND_SEQUENCE, TK_TP_FORMAT_DEFAULT, sizeof(type),                   \
		 TK_TP_IS_SIGNED(type), 0, TK_TP_NULL, TK_TP_NULL)
#define tk_field_array(type, name, expr, n)                                                        \
	TK_TP_FD(#name, TK_TP_KIND_ARRAY, TK_TP_FORMAT_DEFAULT, sizeof(type),                      \
		 TK_TP_IS_SIGNED(type), n, TK_TP_NULL, TK_TP_NULL)
#define tk_field_pid(name, expr)                                                                   \
	TK_TP_FD(#name, TK_TP_KIND_INT, TK_TP_FORMAT_PID, 4, 1, 0, TK_TP_NULL, TK_TP_NULL)
#define tk_field_time_sec(name, expr)                                                              \
	TK_TP_FD(#name, TK_TP_KIND_INT, TK_TP_FORMAT_TIME_SEC, 8, 1, 0, TK_TP_NULL, TK_TP_NULL)
#define tk_field_ipv4(name, expr)                                                                  \
	TK_TP_FD(#name, TK_TP_KIND_INT, TK_TP_FORMAT_IPV4, 4, 0, 0, TK_TP_NULL, TK_TP_NULL)
#define tk_field_port(name, expr)                                                                  \
	TK_TP_FD(#name, TK_TP_KIND_INT, TK_TP_FORMAT_PORT, 2, 0, 0, TK_TP_NULL, TK_TP_NULL)
#define tk_field_uuid(name, expr)                                                                  \
	TK_TP_FD(#name, TK_TP_KIND_ARRAY, TK_TP_FORMAT_UUID, 1, 0, 16, TK_TP_NULL, TK_TP_NULL)
#define tk_field_ipv6(name, expr)                                                                  \
	TK_TP_FD(#name, TK_TP_KIND_ARRAY, TK_TP_FORMAT_IPV6, 1, 0, 16, TK_TP_NULL, TK_TP_NULL)
#define tk_field_bytes16(name, expr)                                                               \
	TK_TP_FD(#name, TK_TP_KIND_ARRAY, TK_TP_FORMAT_BYTES16, 1, 0, 16, TK_TP_NULL, TK_TP_NULL)
#define tk_field_latin1_string(name, expr)                                                         \
	TK_TP_FD(#name, TK_TP_KIND_STRING, TK_TP_FORMAT_LATIN1, 0, 0, 0, TK_TP_NULL, TK_TP_NULL)
#define tk_field_bom_string(name, expr)                                                            \
	TK_TP_FD(#name, TK_TP_KIND_STRING, TK_TP_FORMAT_UTF8_BOM, 0, 0, 0, TK_TP_NULL, TK_TP_NULL)
#define tk_field_xml_string(name, expr)                                                            \
	TK_TP_FD(#name, TK_TP_KIND_STRING, TK_TP_FORMAT_XML, 0, 0, 0, TK_TP_NULL, TK_TP_NULL)
#define tk_field_json_string(name, expr)                                                           \
	TK_TP_FD(#name, TK_TP_KIND_STRING, TK_TP_FORMAT_JSON, 0, 0, 0, TK_TP_NULL, TK_TP_NULL)
#define tk_field_counted_string16(name, expr, len)                                                 \
	TK_TP_FD(#name, TK_TP_KIND_COUNTED, TK_TP_FORMAT_DEFAULT, 2, 0, 0, TK_TP_NULL, TK_TP_NULL)
#define tk_field_counted_string32(name, expr, len)                                                 \
	TK_TP_FD(#name, TK_TP_KIND_COUNTED, TK_TP_FORMAT_DEFAULT, 4, 0, 0, TK_TP_NULL, TK_TP_NULL)
#define tk_field_string16(name, expr)                                                              \
	TK_TP_FD(#name, TK_TP_KIND_WSTRING, TK_TP_FORMAT_DEFAULT, 2, 0, 0, TK_TP_NULL, TK_TP_NULL)
#define tk_field_string32(name, expr)                                                              \
	TK_TP_FD(#name, TK_TP_KIND_WSTRING, TK_TP_FORMAT_DEFAULT, 4, 0, 0, TK_TP_NULL, TK_TP_NULL)
#define tk_field_struct(prov, st, name, ...)                                                       \
	TK_TP_FD(#name, TK_TP_KIND_STRUCT, TK_TP_FORMAT_DEFAULT, 0, 0, 0, TK_TP_NULL,              \
		 &tk_tp_struct_##prov##__##st)

#ifdef __cplusplus
extern "C" {
#endif
#include TK_TRACEPOINT_INCLUDE
#ifdef __cplusplus
}
#endif

#undef TK_TP_FD
#undef tk_enum_value
#undef tk_enum_range
#undef tk_field_int
#undef tk_field_hex
#undef tk_field_pointer
#undef tk_field_errno
#undef tk_field_time
#undef tk_field_float
#undef tk_field_bool
#undef tk_field_enum
#undef tk_field_string
#undef tk_field_counted_string
#undef tk_field_blob
#undef tk_field_sequence
#undef tk_field_array
#undef tk_field_struct
#undef tk_field_pid
#undef tk_field_time_sec
#undef tk_field_ipv4
#undef tk_field_port
#undef tk_field_uuid
#undef tk_field_ipv6
#undef tk_field_bytes16
#undef tk_field_latin1_string
#undef tk_field_bom_string
#undef tk_field_xml_string
#undef tk_field_json_string
#undef tk_field_counted_string16
#undef tk_field_counted_string32
#undef tk_field_string16
#undef tk_field_string32

/* ---- pass 5: the provider and its registration --------------------------------------------- */

#undef TK_TRACEPOINT_EVENT
#undef TK_TRACEPOINT_STRUCT
#undef TK_TRACEPOINT_ENUM
#define TK_TRACEPOINT_EVENT(prov, name, args, level, keyword, fields) &TK_TP_EVENT_SYM(prov, name),
#define TK_TRACEPOINT_STRUCT(prov, name, args, fields)
#define TK_TRACEPOINT_ENUM(prov, name, entries)

#define TK_TP_PROV_SYM(x) TK_TP_CAT(x, TK_TRACEPOINT_PROVIDER)
#define TK_TP_STR_(x)	  #x
#define TK_TP_STR(x)	  TK_TP_STR_(x)

static struct tk_tp_event *const TK_TP_PROV_SYM(tk_tp_events_)[] = {
#include TK_TRACEPOINT_INCLUDE
	TK_TP_NULL};

static struct tk_tp_provider TK_TP_PROV_SYM(tk_tp_provider_) = {
	sizeof(struct tk_tp_provider), TK_TP_STR(TK_TRACEPOINT_PROVIDER),
	TK_TP_PROV_SYM(tk_tp_events_),
	sizeof(TK_TP_PROV_SYM(tk_tp_events_)) / sizeof(TK_TP_PROV_SYM(tk_tp_events_)[0]) - 1};

__attribute__((constructor)) static void TK_TP_PROV_SYM(tk_tp_ctor_)(void)
{
	tk_tp_provider_register(&TK_TP_PROV_SYM(tk_tp_provider_));
}

__attribute__((destructor)) static void TK_TP_PROV_SYM(tk_tp_dtor_)(void)
{
	tk_tp_provider_unregister(&TK_TP_PROV_SYM(tk_tp_provider_));
}

#undef TK_TP_PROV_SYM
#undef TK_TP_STR_
#undef TK_TP_STR

#endif /* TK_TRACEPOINT_DEFINE */

#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

/* back to the meaning outside the passes: nothing */
#undef TK_TRACEPOINT_EVENT
#undef TK_TRACEPOINT_STRUCT
#undef TK_TRACEPOINT_ENUM
#define TK_TRACEPOINT_EVENT(prov, name, args, level, keyword, fields)
#define TK_TRACEPOINT_STRUCT(prov, name, args, fields)
#define TK_TRACEPOINT_ENUM(prov, name, entries)

#undef TK_TRACEPOINT_HEADER_MULTI_READ
#endif /* TK_TRACEPOINT_INCLUDE && !TK_TRACEPOINT_HEADER_MULTI_READ */
