//! The port counters besides data (issue 22): the congestion counter PortXmitWait, the packet
//! counters and the twelve error counters, by their InfiniBand attribute names.
//!
//! Each value carries the width of the counter it was read from: the `PortCounters` attribute
//! holds them in 4 to 32 bits, which stop (never wrap) at their maximum; `PortCountersExtended`
//! and the managers' totals hold 64 bits. A value at its width's maximum is saturated: only a
//! lower bound. Two values of different widths are never subtracted
//! ([`crate::routing::counter_delta`]).

/// The width of the counter a value was read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CounterWidth {
    /// `PortCounters`' 4-, 8- and 16-bit error counters: stop at their maximum.
    Bits4,
    Bits8,
    Bits16,
    /// `PortCounters`: wraps never, stops at `0xffffffff` words.
    Bits32,
    /// `PortCountersExtended` (or a 64-bit total kept by a manager).
    Bits64,
}

impl CounterWidth {
    /// The largest value a counter of this width holds.
    pub fn max(self) -> u64 {
        match self {
            CounterWidth::Bits4 => 0xf,
            CounterWidth::Bits8 => 0xff,
            CounterWidth::Bits16 => 0xffff,
            CounterWidth::Bits32 => 0xffff_ffff,
            CounterWidth::Bits64 => u64::MAX,
        }
    }

    pub fn bits(self) -> u32 {
        match self {
            CounterWidth::Bits4 => 4,
            CounterWidth::Bits8 => 8,
            CounterWidth::Bits16 => 16,
            CounterWidth::Bits32 => 32,
            CounterWidth::Bits64 => 64,
        }
    }
}

/// A counter other than PortXmitData/PortRcvData.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CounterKind {
    /// Ticks during which the port had data to send but no credits (32-bit, or
    /// `PortXmitWaitExt`, 64-bit).
    PortXmitWait,
    PortXmitPkts,
    PortRcvPkts,
    SymbolErrorCounter,
    LinkErrorRecoveryCounter,
    LinkDownedCounter,
    PortRcvErrors,
    PortRcvRemotePhysicalErrors,
    PortRcvSwitchRelayErrors,
    PortXmitDiscards,
    PortXmitConstraintErrors,
    PortRcvConstraintErrors,
    LocalLinkIntegrityErrors,
    ExcessiveBufferOverrunErrors,
    VL15Dropped,
}

/// How many [`CounterKind`]s there are.
pub const KINDS: usize = 15;

/// What an error counter accuses (issue 22, item 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Accused {
    /// Symbol errors, link recovery, link downed, local link integrity.
    Cable,
    /// Buffer overrun, transmit discards.
    Buffers,
    /// Constraint errors, switch relay errors.
    Routing,
    /// Receive errors, remote physical errors, VL15 drops.
    Other,
}

impl Accused {
    pub fn name(self) -> &'static str {
        match self {
            Accused::Cable => "cable",
            Accused::Buffers => "buffers and credits",
            Accused::Routing => "routing and configuration",
            Accused::Other => "other",
        }
    }
}

impl CounterKind {
    pub const ALL: [CounterKind; KINDS] = [
        CounterKind::PortXmitWait,
        CounterKind::PortXmitPkts,
        CounterKind::PortRcvPkts,
        CounterKind::SymbolErrorCounter,
        CounterKind::LinkErrorRecoveryCounter,
        CounterKind::LinkDownedCounter,
        CounterKind::PortRcvErrors,
        CounterKind::PortRcvRemotePhysicalErrors,
        CounterKind::PortRcvSwitchRelayErrors,
        CounterKind::PortXmitDiscards,
        CounterKind::PortXmitConstraintErrors,
        CounterKind::PortRcvConstraintErrors,
        CounterKind::LocalLinkIntegrityErrors,
        CounterKind::ExcessiveBufferOverrunErrors,
        CounterKind::VL15Dropped,
    ];

    /// The IB attribute name (the `counter` of `shoal health --json`).
    pub fn name(self) -> &'static str {
        match self {
            CounterKind::PortXmitWait => "PortXmitWait",
            CounterKind::PortXmitPkts => "PortXmitPkts",
            CounterKind::PortRcvPkts => "PortRcvPkts",
            CounterKind::SymbolErrorCounter => "SymbolErrorCounter",
            CounterKind::LinkErrorRecoveryCounter => "LinkErrorRecoveryCounter",
            CounterKind::LinkDownedCounter => "LinkDownedCounter",
            CounterKind::PortRcvErrors => "PortRcvErrors",
            CounterKind::PortRcvRemotePhysicalErrors => "PortRcvRemotePhysicalErrors",
            CounterKind::PortRcvSwitchRelayErrors => "PortRcvSwitchRelayErrors",
            CounterKind::PortXmitDiscards => "PortXmitDiscards",
            CounterKind::PortXmitConstraintErrors => "PortXmitConstraintErrors",
            CounterKind::PortRcvConstraintErrors => "PortRcvConstraintErrors",
            CounterKind::LocalLinkIntegrityErrors => "LocalLinkIntegrityErrors",
            CounterKind::ExcessiveBufferOverrunErrors => "ExcessiveBufferOverrunErrors",
            CounterKind::VL15Dropped => "VL15Dropped",
        }
    }

    /// The width of this counter in the 32-bit `PortCounters` attribute (IBA 16.1.3.5).
    pub fn basic_width(self) -> CounterWidth {
        use CounterKind::*;
        match self {
            PortXmitWait | PortXmitPkts | PortRcvPkts => CounterWidth::Bits32,
            SymbolErrorCounter
            | PortRcvErrors
            | PortRcvRemotePhysicalErrors
            | PortRcvSwitchRelayErrors
            | PortXmitDiscards
            | VL15Dropped => CounterWidth::Bits16,
            LinkErrorRecoveryCounter
            | LinkDownedCounter
            | PortXmitConstraintErrors
            | PortRcvConstraintErrors => CounterWidth::Bits8,
            LocalLinkIntegrityErrors | ExcessiveBufferOverrunErrors => CounterWidth::Bits4,
        }
    }

    /// True for the twelve error counters.
    pub fn is_error(self) -> bool {
        self.accuses().is_some()
    }

    /// What an error counter accuses; `None` for XmitWait and the packet counters.
    pub fn accuses(self) -> Option<Accused> {
        use CounterKind::*;
        Some(match self {
            PortXmitWait | PortXmitPkts | PortRcvPkts => return None,
            SymbolErrorCounter | LinkErrorRecoveryCounter | LinkDownedCounter | LocalLinkIntegrityErrors => {
                Accused::Cable
            }
            ExcessiveBufferOverrunErrors | PortXmitDiscards => Accused::Buffers,
            PortXmitConstraintErrors | PortRcvConstraintErrors | PortRcvSwitchRelayErrors => Accused::Routing,
            PortRcvErrors | PortRcvRemotePhysicalErrors | VL15Dropped => Accused::Other,
        })
    }

    /// The counter a tool's name stands for, and whether the name is its 64-bit (`Ext`,
    /// `_extended`) form. Names are compared without case, `_` or spaces, so `PortXmitWait`,
    /// `port_xmit_wait` and `portxmitwait` are one; the short names of OpenSM's PerfMgr
    /// (`symbol_err_cnt`, `xmit_wait`, …) and the exporters' (`transmit_wait`, …) are aliases.
    pub fn from_name(name: &str) -> Option<(CounterKind, bool)> {
        // Normalised on the stack: readers call this for every counter line they see.
        let mut buffer = [0u8; 48];
        let mut len = 0;
        for b in name.bytes().filter(u8::is_ascii_alphanumeric) {
            *buffer.get_mut(len)? = b.to_ascii_lowercase();
            len += 1;
        }
        let key = std::str::from_utf8(&buffer[..len]).ok()?;
        let (key, wide) = match key.strip_suffix("extended").or_else(|| key.strip_suffix("ext")) {
            Some(base) => (base, true),
            None => (key, false),
        };
        ALIASES.iter().find(|(alias, _)| *alias == key).map(|(_, kind)| (*kind, wide))
    }
}

/// Normalised names (lower case, alphanumerics only) of each counter, as the tools write them.
const ALIASES: [(&str, CounterKind); 46] = [
    ("portxmitwait", CounterKind::PortXmitWait),
    ("xmitwait", CounterKind::PortXmitWait),
    ("porttransmitwait", CounterKind::PortXmitWait),
    ("portxmitpkts", CounterKind::PortXmitPkts),
    ("xmitpkts", CounterKind::PortXmitPkts),
    ("porttransmitpackets", CounterKind::PortXmitPkts),
    ("portrcvpkts", CounterKind::PortRcvPkts),
    ("rcvpkts", CounterKind::PortRcvPkts),
    ("portreceivepackets", CounterKind::PortRcvPkts),
    ("symbolerrorcounter", CounterKind::SymbolErrorCounter),
    ("symbolerrcnt", CounterKind::SymbolErrorCounter),
    ("portsymbolerror", CounterKind::SymbolErrorCounter),
    ("symbolerror", CounterKind::SymbolErrorCounter),
    ("linkerrorrecoverycounter", CounterKind::LinkErrorRecoveryCounter),
    ("linkerrrecover", CounterKind::LinkErrorRecoveryCounter),
    ("portlinkerrorrecovery", CounterKind::LinkErrorRecoveryCounter),
    ("linkdownedcounter", CounterKind::LinkDownedCounter),
    ("linkdowned", CounterKind::LinkDownedCounter),
    ("portlinkdowned", CounterKind::LinkDownedCounter),
    ("portrcverrors", CounterKind::PortRcvErrors),
    ("rcverr", CounterKind::PortRcvErrors),
    ("portreceiveerrors", CounterKind::PortRcvErrors),
    ("portrcvremotephysicalerrors", CounterKind::PortRcvRemotePhysicalErrors),
    ("rcvremphyserr", CounterKind::PortRcvRemotePhysicalErrors),
    ("portreceiveremotephysicalerrors", CounterKind::PortRcvRemotePhysicalErrors),
    ("portrcvswitchrelayerrors", CounterKind::PortRcvSwitchRelayErrors),
    ("rcvswitchrelayerr", CounterKind::PortRcvSwitchRelayErrors),
    ("portreceiveswitchrelayerrors", CounterKind::PortRcvSwitchRelayErrors),
    ("portxmitdiscards", CounterKind::PortXmitDiscards),
    ("xmitdiscards", CounterKind::PortXmitDiscards),
    ("porttransmitdiscards", CounterKind::PortXmitDiscards),
    ("portxmitconstrainterrors", CounterKind::PortXmitConstraintErrors),
    ("xmitconstrainterr", CounterKind::PortXmitConstraintErrors),
    ("porttransmitconstrainterrors", CounterKind::PortXmitConstraintErrors),
    ("portrcvconstrainterrors", CounterKind::PortRcvConstraintErrors),
    ("rcvconstrainterr", CounterKind::PortRcvConstraintErrors),
    ("portreceiveconstrainterrors", CounterKind::PortRcvConstraintErrors),
    ("locallinkintegrityerrors", CounterKind::LocalLinkIntegrityErrors),
    ("linkintegrityerr", CounterKind::LocalLinkIntegrityErrors),
    ("linkinterr", CounterKind::LocalLinkIntegrityErrors),
    ("portlocallinkintegrityerrors", CounterKind::LocalLinkIntegrityErrors),
    ("excessivebufferoverrunerrors", CounterKind::ExcessiveBufferOverrunErrors),
    ("bufoverrunerr", CounterKind::ExcessiveBufferOverrunErrors),
    ("portexcessivebufferoverrunerrors", CounterKind::ExcessiveBufferOverrunErrors),
    ("vl15dropped", CounterKind::VL15Dropped),
    ("portvl15dropped", CounterKind::VL15Dropped),
];

/// One counter value and the width it was read at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Count {
    pub value: u64,
    pub width: CounterWidth,
}

impl Count {
    /// At its width's maximum: the counter stopped, the value is only a lower bound.
    pub fn saturated(self) -> bool {
        self.width != CounterWidth::Bits64 && self.value >= self.width.max()
    }
}

/// A port's counters besides data: a value array and a width per counter (`None`: not read),
/// 136 bytes, kept apart from the data counters so that a data-only snapshot pays nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OtherCounters {
    values: [u64; KINDS],
    widths: [Option<CounterWidth>; KINDS],
}

impl OtherCounters {
    pub fn get(&self, kind: CounterKind) -> Option<Count> {
        let i = kind as usize;
        self.widths[i].map(|width| Count { value: self.values[i], width })
    }

    /// Sets a counter. Both forms in one file: the 64-bit one is preferred, except where it
    /// reads 0 and the narrow one does not (real NDR captures leave some `...Ext` error columns
    /// at 0 beside a non-zero 16-bit counter). Returns false when a value of the same width was
    /// already there (the first is kept).
    pub fn set(&mut self, kind: CounterKind, count: Count) -> bool {
        let i = kind as usize;
        let replace = match self.get(kind) {
            None => true,
            Some(old) if old.width == count.width => return false,
            Some(old) if count.width == CounterWidth::Bits64 => count.value != 0 || old.value == 0,
            Some(old) if old.width == CounterWidth::Bits64 => old.value == 0 && count.value != 0,
            Some(_) => false,
        };
        if replace {
            self.values[i] = count.value;
            self.widths[i] = Some(count.width);
        }
        true
    }

    /// The counters that were read, in [`CounterKind::ALL`] order.
    pub fn iter(&self) -> impl Iterator<Item = (CounterKind, Count)> + '_ {
        CounterKind::ALL.into_iter().filter_map(|k| Some((k, self.get(k)?)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tool_names_of_one_counter_are_one_kind() {
        for name in ["PortXmitWait", "port_xmit_wait", "xmit_wait", "port_transmit_wait", "portxmitwait"] {
            assert_eq!(CounterKind::from_name(name), Some((CounterKind::PortXmitWait, false)), "{name}");
        }
        assert_eq!(CounterKind::from_name("PortXmitWaitExt"), Some((CounterKind::PortXmitWait, true)));
        assert_eq!(CounterKind::from_name("symbol_err_cnt"), Some((CounterKind::SymbolErrorCounter, false)));
        assert_eq!(CounterKind::from_name("QP1Dropped"), None);
        assert_eq!(CounterKind::from_name("PortXmitData"), None);
    }

    #[test]
    fn every_kind_is_found_by_its_attribute_name() {
        for kind in CounterKind::ALL {
            assert_eq!(CounterKind::from_name(kind.name()), Some((kind, false)));
        }
    }

    #[test]
    fn twelve_error_counters_each_accuse_something() {
        let errors: Vec<CounterKind> = CounterKind::ALL.into_iter().filter(|k| k.is_error()).collect();
        assert_eq!(errors.len(), 12);
        assert_eq!(CounterKind::LinkDownedCounter.accuses(), Some(Accused::Cable));
        assert_eq!(CounterKind::PortXmitDiscards.accuses(), Some(Accused::Buffers));
        assert_eq!(CounterKind::PortRcvSwitchRelayErrors.accuses(), Some(Accused::Routing));
    }

    #[test]
    fn a_counter_at_its_width_maximum_is_saturated() {
        assert!(Count { value: 0xffff_ffff, width: CounterWidth::Bits32 }.saturated());
        assert!(Count { value: 65535, width: CounterWidth::Bits16 }.saturated());
        assert!(!Count { value: 65534, width: CounterWidth::Bits16 }.saturated());
        assert!(!Count { value: u64::MAX, width: CounterWidth::Bits64 }.saturated());
    }

    #[test]
    fn the_64_bit_value_of_a_counter_is_kept_over_a_narrower_one() {
        let mut c = OtherCounters::default();
        let wait = CounterKind::PortXmitWait;
        assert!(c.set(wait, Count { value: 0xffff_ffff, width: CounterWidth::Bits32 }));
        assert!(c.set(wait, Count { value: 1 << 40, width: CounterWidth::Bits64 }));
        assert!(c.set(wait, Count { value: 5, width: CounterWidth::Bits32 }));
        assert_eq!(c.get(wait), Some(Count { value: 1 << 40, width: CounterWidth::Bits64 }));
        assert!(!c.set(wait, Count { value: 7, width: CounterWidth::Bits64 }), "a repeat is reported");
        assert_eq!(c.get(CounterKind::VL15Dropped), None);
    }

    #[test]
    fn an_extended_column_left_at_zero_does_not_hide_the_narrow_count() {
        let mut c = OtherCounters::default();
        let symbols = CounterKind::SymbolErrorCounter;
        c.set(symbols, Count { value: 65535, width: CounterWidth::Bits16 });
        c.set(symbols, Count { value: 0, width: CounterWidth::Bits64 });
        assert_eq!(c.get(symbols), Some(Count { value: 65535, width: CounterWidth::Bits16 }));
    }
}
