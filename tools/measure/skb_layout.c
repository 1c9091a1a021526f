/* The layouts of v2.6.25's struct sk_buff and struct skb_shared_info, field by field as in
 * include/linux/skbuff.h at tag v2.6.25 (the same at v2.6.25-rc1), with the fields that the
 * arch defconfig's network options leave out removed: netfilter (nfct, nfct_reasm,
 * nf_bridge), CONFIG_NET_SCHED, CONFIG_NET_DMA and CONFIG_NETWORK_SECMARK are off in
 * arch/arm/configs/versatile_defconfig (the ARM926EJ-S reference board),
 * arch/ia64/configs/generic_defconfig and arch/x86/configs/{x86_64,i386}_defconfig;
 * CONFIG_NETDEVICES_MULTIQUEUE is on in the x86 ones alone (-DCONFIG_NETDEVICES_MULTIQUEUE). Kernel
 * types are replaced by types of the same size and alignment: a pointer for each struct pointer,
 * ktime_t as the kernel defines it (a union of an s64 and, on 32-bit without CONFIG_KTIME_SCALAR,
 * two s32), sk_buff_data_t an offset on 64-bit (NET_SKBUFF_DATA_USES_OFFSET, BITS_PER_LONG > 32)
 * and a pointer on 32-bit. Compiled by tools/measure/skb_layout.sh for each ABI; the sizes
 * are in the object's .rodata, so a cross compiler is enough (nothing is run). */
typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef long long s64;
typedef int s32;
#if __SIZEOF_LONG__ > 4
typedef unsigned int sk_buff_data_t;
typedef union {
	s64 tv64;
} ktime_t;
#else
typedef unsigned char *sk_buff_data_t;
typedef union {
	s64 tv64;
	struct {
		s32 nsec, sec; /* little endian */
	} tv;
} ktime_t;
#endif
typedef struct {
	int counter;
} atomic_t;

struct sk_buff {
	struct sk_buff *next, *prev;
	void *sk;
	ktime_t tstamp;
	void *dev;
	void *dst;
	void *sp;
	char cb[48];
	unsigned int len, data_len;
	u16 mac_len, hdr_len;
	union {
		u32 csum;
		struct {
			u16 csum_start;
			u16 csum_offset;
		};
	};
	u32 priority;
	u8 local_df : 1, cloned : 1, ip_summed : 2, nohdr : 1, nfctinfo : 3;
	u8 pkt_type : 3, fclone : 2, ipvs_property : 1, peeked : 1, nf_trace : 1;
	u16 protocol;
	void (*destructor)(struct sk_buff *skb);
	int iif;
#ifdef CONFIG_NETDEVICES_MULTIQUEUE /* on in x86_64_defconfig and i386_defconfig */
	u16 queue_mapping;
#endif
	u32 mark;
	sk_buff_data_t transport_header, network_header, mac_header, tail, end;
	unsigned char *head, *data;
	unsigned int truesize;
	atomic_t users;
};

struct skb_frag_struct {
	void *page;
	u32 page_offset;
	u32 size;
};

/* skb_shared_info less its frags[MAX_SKB_FRAGS] array */
struct skb_shared_info_head {
	atomic_t dataref;
	unsigned short nr_frags, gso_size, gso_segs, gso_type;
	u32 ip6_frag_id;
	struct sk_buff *frag_list;
	struct skb_frag_struct frags[];
};

const unsigned sizeof_sk_buff = sizeof(struct sk_buff);
const unsigned sizeof_skb_shared_info_head = sizeof(struct skb_shared_info_head);
const unsigned sizeof_skb_frag = sizeof(struct skb_frag_struct);
