//! Which addresses a fetch may connect to.
//!
//! Guarantees: [`classify`] is a pure function of the address and puts
//! every IPv4 and IPv6 address in exactly one [`AddressClass`]; an address
//! is [`AddressClass::Public`] only if it is ordinary global unicast (for
//! IPv6: inside `2000::/3` and outside every special range), so a range
//! this module does not know about is refused rather than allowed. IPv6
//! forms that carry an IPv4 address the network may reach (IPv4-mapped
//! `::ffff:0:0/96`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) are classified
//! by the IPv4 address they carry, so `[::ffff:127.0.0.1]` is loopback.
//! The deprecated IPv4-compatible form `::a.b.c.d` is always refused.
//!
//! [`AddressPolicy::default`] allows only [`AddressClass::Public`];
//! `allow_private` also opens the classes an intranet or a test fixture
//! lives in (see [`AddressClass::is_private_use`]), never unspecified,
//! multicast, broadcast, documentation, benchmarking or reserved ones.
//!
//! The policy sees addresses, not spellings: host names such as
//! `2130706433`, `0x7f000001`, `0177.0.0.1` or `127.1` are normalized to
//! `127.0.0.1` by URL parsing before the fetch stage asks the policy.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// The address policy: by default only public unicast addresses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AddressPolicy {
    /// Also allow loopback, private, link-local, unique-local, site-local
    /// and shared (CGNAT) addresses (intranets, tests). Unspecified,
    /// multicast, broadcast, documentation, benchmarking and reserved
    /// addresses stay refused.
    pub allow_private: bool,
}

impl AddressPolicy {
    /// A policy that also allows private-use addresses.
    pub const fn allowing_private() -> AddressPolicy {
        AddressPolicy {
            allow_private: true,
        }
    }

    /// Whether a connection to `ip` is allowed.
    pub fn allows(&self, ip: IpAddr) -> bool {
        self.check(ip).is_ok()
    }

    /// `Ok` if a connection to `ip` is allowed, else the class that made
    /// the policy refuse it.
    pub fn check(&self, ip: IpAddr) -> Result<(), AddressClass> {
        let class = classify(ip);
        if class == AddressClass::Public || (self.allow_private && class.is_private_use()) {
            Ok(())
        } else {
            Err(class)
        }
    }
}

/// What kind of address an IP address is, for the policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AddressClass {
    /// Ordinary global unicast.
    Public,
    /// `127.0.0.0/8`, `::1`.
    Loopback,
    /// `10.0.0.0/8`, `172.16.0.0/12`, `192.168.0.0/16`, and the NAT64
    /// local-use prefix `64:ff9b:1::/48`.
    Private,
    /// `100.64.0.0/10`, carrier-grade NAT.
    SharedAddressSpace,
    /// `169.254.0.0/16`, `fe80::/10`.
    LinkLocal,
    /// `fc00::/7`.
    UniqueLocal,
    /// `fec0::/10`, deprecated, as private as unique-local.
    SiteLocal,
    /// `0.0.0.0`, `::`: Linux connects these to the local host.
    Unspecified,
    /// `224.0.0.0/4`, `ff00::/8`.
    Multicast,
    /// `255.255.255.255`.
    Broadcast,
    /// `192.0.2.0/24`, `198.51.100.0/24`, `203.0.113.0/24`,
    /// `2001:db8::/32`, `3fff::/20`.
    Documentation,
    /// `198.18.0.0/15`, `2001:2::/48`.
    Benchmarking,
    /// Everything else that is not global unicast: `0.0.0.0/8`,
    /// `192.0.0.0/24`, `192.88.99.0/24`, `240.0.0.0/4`, IPv4-compatible
    /// `::/96`, `100::/64`, `2001::/23`, `5f00::/16`, and IPv6 outside
    /// `2000::/3`.
    Reserved,
}

impl AddressClass {
    /// The classes `allow_private` opens: where intranets and local test
    /// fixtures live.
    pub fn is_private_use(self) -> bool {
        matches!(
            self,
            AddressClass::Loopback
                | AddressClass::Private
                | AddressClass::SharedAddressSpace
                | AddressClass::LinkLocal
                | AddressClass::UniqueLocal
                | AddressClass::SiteLocal
        )
    }

    /// A stable lowercase name, for messages.
    pub fn name(self) -> &'static str {
        match self {
            AddressClass::Public => "public",
            AddressClass::Loopback => "loopback",
            AddressClass::Private => "private",
            AddressClass::SharedAddressSpace => "shared address space",
            AddressClass::LinkLocal => "link-local",
            AddressClass::UniqueLocal => "unique-local",
            AddressClass::SiteLocal => "site-local",
            AddressClass::Unspecified => "unspecified",
            AddressClass::Multicast => "multicast",
            AddressClass::Broadcast => "broadcast",
            AddressClass::Documentation => "documentation",
            AddressClass::Benchmarking => "benchmarking",
            AddressClass::Reserved => "reserved",
        }
    }
}

impl fmt::Display for AddressClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The class of an address.
pub fn classify(ip: IpAddr) -> AddressClass {
    match ip {
        IpAddr::V4(v4) => classify_v4(v4),
        IpAddr::V6(v6) => classify_v6(v6),
    }
}

/// Whether `ip` lies in `base/len`.
fn in_v4(ip: Ipv4Addr, base: [u8; 4], len: u32) -> bool {
    let mask = u32::MAX.checked_shl(32 - len).unwrap_or(0);
    u32::from(ip) & mask == u32::from(Ipv4Addr::from(base)) & mask
}

fn in_v6(ip: Ipv6Addr, base: [u16; 8], len: u32) -> bool {
    let mask = u128::MAX.checked_shl(128 - len).unwrap_or(0);
    let base = Ipv6Addr::new(
        base[0], base[1], base[2], base[3], base[4], base[5], base[6], base[7],
    );
    u128::from(ip) & mask == u128::from(base) & mask
}

fn classify_v4(ip: Ipv4Addr) -> AddressClass {
    // Most specific first: 0.0.0.0 is inside 0/8, 255.255.255.255 inside 240/4.
    const TABLE: &[([u8; 4], u32, AddressClass)] = &[
        ([0, 0, 0, 0], 32, AddressClass::Unspecified),
        ([255, 255, 255, 255], 32, AddressClass::Broadcast),
        ([0, 0, 0, 0], 8, AddressClass::Reserved),
        ([10, 0, 0, 0], 8, AddressClass::Private),
        ([100, 64, 0, 0], 10, AddressClass::SharedAddressSpace),
        ([127, 0, 0, 0], 8, AddressClass::Loopback),
        ([169, 254, 0, 0], 16, AddressClass::LinkLocal),
        ([172, 16, 0, 0], 12, AddressClass::Private),
        ([192, 0, 0, 0], 24, AddressClass::Reserved),
        ([192, 0, 2, 0], 24, AddressClass::Documentation),
        ([192, 88, 99, 0], 24, AddressClass::Reserved),
        ([192, 168, 0, 0], 16, AddressClass::Private),
        ([198, 18, 0, 0], 15, AddressClass::Benchmarking),
        ([198, 51, 100, 0], 24, AddressClass::Documentation),
        ([203, 0, 113, 0], 24, AddressClass::Documentation),
        ([224, 0, 0, 0], 4, AddressClass::Multicast),
        ([240, 0, 0, 0], 4, AddressClass::Reserved),
    ];
    TABLE
        .iter()
        .find(|(base, len, _)| in_v4(ip, *base, *len))
        .map_or(AddressClass::Public, |(_, _, class)| *class)
}

fn classify_v6(ip: Ipv6Addr) -> AddressClass {
    let bits = u128::from(ip);
    if ip.is_unspecified() {
        return AddressClass::Unspecified;
    }
    if ip.is_loopback() {
        return AddressClass::Loopback;
    }
    // The forms below reach an IPv4 host, so the IPv4 host decides.
    if let Some(v4) = ip.to_ipv4_mapped() {
        return classify_v4(v4);
    }
    // The u32 casts keep the low 32 bits on purpose: that is where these
    // prefixes carry the IPv4 address.
    if in_v6(ip, [0x64, 0xff9b, 0, 0, 0, 0, 0, 0], 96) {
        return classify_v4(Ipv4Addr::from(bits as u32));
    }
    if in_v6(ip, [0x2002, 0, 0, 0, 0, 0, 0, 0], 16) {
        return classify_v4(Ipv4Addr::from((bits >> 80) as u32));
    }
    // IPv4-compatible (::a.b.c.d) is deprecated (RFC 4291) and no
    // legitimate server uses it; stacks that still honour it reach the
    // embedded IPv4 host, so it is refused whatever that host is.
    if in_v6(ip, [0; 8], 96) {
        return AddressClass::Reserved;
    }
    const TABLE: &[([u16; 8], u32, AddressClass)] = &[
        ([0x64, 0xff9b, 1, 0, 0, 0, 0, 0], 48, AddressClass::Private),
        ([0x100, 0, 0, 0, 0, 0, 0, 0], 64, AddressClass::Reserved),
        (
            [0x2001, 0x2, 0, 0, 0, 0, 0, 0],
            48,
            AddressClass::Benchmarking,
        ),
        ([0x2001, 0, 0, 0, 0, 0, 0, 0], 23, AddressClass::Reserved),
        (
            [0x2001, 0xdb8, 0, 0, 0, 0, 0, 0],
            32,
            AddressClass::Documentation,
        ),
        (
            [0x3fff, 0, 0, 0, 0, 0, 0, 0],
            20,
            AddressClass::Documentation,
        ),
        ([0x5f00, 0, 0, 0, 0, 0, 0, 0], 16, AddressClass::Reserved),
        ([0xfc00, 0, 0, 0, 0, 0, 0, 0], 7, AddressClass::UniqueLocal),
        ([0xfe80, 0, 0, 0, 0, 0, 0, 0], 10, AddressClass::LinkLocal),
        ([0xfec0, 0, 0, 0, 0, 0, 0, 0], 10, AddressClass::SiteLocal),
        ([0xff00, 0, 0, 0, 0, 0, 0, 0], 8, AddressClass::Multicast),
    ];
    if let Some((_, _, class)) = TABLE.iter().find(|(base, len, _)| in_v6(ip, *base, *len)) {
        return *class;
    }
    if in_v6(ip, [0x2000, 0, 0, 0, 0, 0, 0, 0], 3) {
        AddressClass::Public
    } else {
        AddressClass::Reserved
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().expect("test addresses are valid literals")
    }

    fn host_ip(url: &str) -> IpAddr {
        let parsed = url::Url::parse(url).expect("test URLs parse");
        match parsed.host() {
            Some(url::Host::Ipv4(v4)) => IpAddr::V4(v4),
            Some(url::Host::Ipv6(v6)) => IpAddr::V6(v6),
            other => panic!("{url} has no IP host: {other:?}"),
        }
    }

    const CASES: &[(&str, AddressClass)] = &[
        ("0.0.0.0", AddressClass::Unspecified),
        ("0.1.2.3", AddressClass::Reserved),
        ("0.255.255.255", AddressClass::Reserved),
        ("1.1.1.1", AddressClass::Public),
        ("8.8.8.8", AddressClass::Public),
        ("9.255.255.255", AddressClass::Public),
        ("10.0.0.0", AddressClass::Private),
        ("10.255.255.255", AddressClass::Private),
        ("11.0.0.0", AddressClass::Public),
        ("100.63.255.255", AddressClass::Public),
        ("100.64.0.0", AddressClass::SharedAddressSpace),
        ("100.127.255.255", AddressClass::SharedAddressSpace),
        ("100.128.0.0", AddressClass::Public),
        ("126.255.255.255", AddressClass::Public),
        ("127.0.0.1", AddressClass::Loopback),
        ("127.255.255.254", AddressClass::Loopback),
        ("128.0.0.0", AddressClass::Public),
        ("169.253.255.255", AddressClass::Public),
        ("169.254.0.1", AddressClass::LinkLocal),
        ("169.254.169.254", AddressClass::LinkLocal),
        ("169.255.0.0", AddressClass::Public),
        ("172.15.255.255", AddressClass::Public),
        ("172.16.0.0", AddressClass::Private),
        ("172.31.255.255", AddressClass::Private),
        ("172.32.0.0", AddressClass::Public),
        ("192.0.0.8", AddressClass::Reserved),
        ("192.0.1.0", AddressClass::Public),
        ("192.0.2.1", AddressClass::Documentation),
        ("192.88.99.1", AddressClass::Reserved),
        ("192.167.255.255", AddressClass::Public),
        ("192.168.0.1", AddressClass::Private),
        ("192.168.255.255", AddressClass::Private),
        ("192.169.0.0", AddressClass::Public),
        ("198.17.255.255", AddressClass::Public),
        ("198.18.0.0", AddressClass::Benchmarking),
        ("198.19.255.255", AddressClass::Benchmarking),
        ("198.20.0.0", AddressClass::Public),
        ("198.51.100.7", AddressClass::Documentation),
        ("203.0.113.9", AddressClass::Documentation),
        ("223.255.255.255", AddressClass::Public),
        ("224.0.0.1", AddressClass::Multicast),
        ("239.255.255.255", AddressClass::Multicast),
        ("240.0.0.1", AddressClass::Reserved),
        ("255.255.255.254", AddressClass::Reserved),
        ("255.255.255.255", AddressClass::Broadcast),
        ("::", AddressClass::Unspecified),
        ("::1", AddressClass::Loopback),
        ("::ffff:127.0.0.1", AddressClass::Loopback),
        ("::ffff:10.1.2.3", AddressClass::Private),
        ("::ffff:169.254.169.254", AddressClass::LinkLocal),
        ("::ffff:0.0.0.0", AddressClass::Unspecified),
        ("::ffff:8.8.8.8", AddressClass::Public),
        ("::127.0.0.1", AddressClass::Reserved),
        ("::8.8.8.8", AddressClass::Reserved),
        ("::2", AddressClass::Reserved),
        ("::ffff:0:7f00:1", AddressClass::Reserved),
        ("64:ff9b::7f00:1", AddressClass::Loopback),
        ("64:ff9b::a9fe:a9fe", AddressClass::LinkLocal),
        ("64:ff9b::808:808", AddressClass::Public),
        ("64:ff9b:1::1", AddressClass::Private),
        ("100::1", AddressClass::Reserved),
        ("2001::1", AddressClass::Reserved),
        ("2001:1ff:ffff::1", AddressClass::Reserved),
        ("2001:2::1", AddressClass::Benchmarking),
        ("2001:200::1", AddressClass::Public),
        ("2001:db8::1", AddressClass::Documentation),
        ("2001:4860:4860::8888", AddressClass::Public),
        ("2002:7f00:1::1", AddressClass::Loopback),
        ("2002:c0a8:101::", AddressClass::Private),
        ("2002:0808:0808::1", AddressClass::Public),
        ("2002::1", AddressClass::Unspecified),
        ("2606:4700::1111", AddressClass::Public),
        ("3ffe::1", AddressClass::Public),
        ("3fff::1", AddressClass::Documentation),
        ("3fff:fff::1", AddressClass::Documentation),
        ("3fff:1000::1", AddressClass::Public),
        ("4000::1", AddressClass::Reserved),
        ("5f00::1", AddressClass::Reserved),
        ("fc00::1", AddressClass::UniqueLocal),
        ("fdff:ffff::1", AddressClass::UniqueLocal),
        ("fe80::1", AddressClass::LinkLocal),
        ("febf::1", AddressClass::LinkLocal),
        ("fec0::1", AddressClass::SiteLocal),
        ("feff::1", AddressClass::SiteLocal),
        ("ff02::1", AddressClass::Multicast),
        ("ff0e::1", AddressClass::Multicast),
    ];

    #[test]
    fn every_range_is_classified() {
        for (text, class) in CASES {
            assert_eq!(classify(ip(text)), *class, "{text}");
        }
    }

    #[test]
    fn default_policy_allows_only_public_addresses() {
        let policy = AddressPolicy::default();
        for (text, class) in CASES {
            let expected = if *class == AddressClass::Public {
                Ok(())
            } else {
                Err(*class)
            };
            assert_eq!(policy.check(ip(text)), expected, "{text}");
            assert_eq!(policy.allows(ip(text)), expected.is_ok(), "{text}");
        }
    }

    #[test]
    fn allow_private_opens_private_use_classes_only() {
        let policy = AddressPolicy::allowing_private();
        for (text, class) in CASES {
            let allowed = matches!(
                class,
                AddressClass::Public
                    | AddressClass::Loopback
                    | AddressClass::Private
                    | AddressClass::SharedAddressSpace
                    | AddressClass::LinkLocal
                    | AddressClass::UniqueLocal
                    | AddressClass::SiteLocal
            );
            assert_eq!(policy.allows(ip(text)), allowed, "{text}");
        }
        for never in ["0.0.0.0", "::", "224.0.0.1", "ff02::1", "255.255.255.255"] {
            assert!(!policy.allows(ip(never)), "{never}");
        }
    }

    #[test]
    fn ipv4_spellings_reach_the_policy_as_127_0_0_1() {
        for url in [
            "http://2130706433/",
            "http://0x7f000001/",
            "http://0X7F000001/",
            "http://0177.0.0.1/",
            "http://0x7f.0.0.1/",
            "http://127.1/",
            "http://127.0.1/",
            "http://127.0.0.1./",
            "https://%31%32%37.0.0.1/",
        ] {
            assert_eq!(host_ip(url), ip("127.0.0.1"), "{url}");
            assert!(!AddressPolicy::default().allows(host_ip(url)), "{url}");
        }
        assert_eq!(host_ip("http://0xa9fea9fe/"), ip("169.254.169.254"));
        assert_eq!(host_ip("http://0/"), ip("0.0.0.0"));
        assert!(!AddressPolicy::allowing_private().allows(host_ip("http://0/")));
    }

    #[test]
    fn ipv6_spellings_reach_the_policy_normalized() {
        assert_eq!(host_ip("http://[::ffff:127.0.0.1]/"), ip("::ffff:7f00:1"));
        assert_eq!(
            classify(host_ip("http://[::ffff:7f00:1]/")),
            AddressClass::Loopback
        );
        assert_eq!(
            classify(host_ip("http://[0:0:0:0:0:0:0:1]/")),
            AddressClass::Loopback
        );
        assert_eq!(
            classify(host_ip("http://[FE80::1]/")),
            AddressClass::LinkLocal
        );
    }

    #[test]
    fn class_names_are_distinct() {
        let mut names: Vec<&str> = CASES.iter().map(|(_, class)| class.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), 13);
    }
}
