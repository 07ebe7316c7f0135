//! `#[engine_mode]` on stand-ins for the engine: the struct gains the mode parameter (defaulting to
//! `Dyn`) and its marker field, with or without a trailing comma after its last field; an impl block
//! becomes generic, so its methods exist for every mode and can read the mode's constant.

mod sim {
    pub trait Mode: Default + 'static {
        const PLAIN: bool;
    }

    #[derive(Default)]
    pub struct Dyn;

    #[derive(Default)]
    pub struct Plain;

    impl Mode for Dyn {
        const PLAIN: bool = false;
    }

    impl Mode for Plain {
        const PLAIN: bool = true;
    }
}

mod trailing_comma {
    #[leaselab_macros::engine_mode]
    #[derive(Default)]
    pub struct Engine {
        pub runs: u32,
    }

    #[leaselab_macros::engine_mode]
    impl Engine {
        pub fn plain(&self) -> bool {
            M::PLAIN
        }

        pub fn run(&mut self) -> u32 {
            self.runs += 1;
            self.runs
        }
    }
}

mod no_trailing_comma {
    #[leaselab_macros::engine_mode]
    #[derive(Default)]
    #[rustfmt::skip] // the point: no comma after the last field
    pub struct Engine {
        pub runs: u32,
        pub last: u64
    }

    #[leaselab_macros::engine_mode]
    impl Engine {
        pub fn plain(&self) -> bool {
            M::PLAIN
        }
    }
}

#[test]
fn an_impl_block_serves_every_mode_and_reads_its_constant() {
    let mut dyn_engine = trailing_comma::Engine::<sim::Dyn>::default();
    let mut plain_engine = trailing_comma::Engine::<sim::Plain>::default();
    assert!(!dyn_engine.plain());
    assert!(plain_engine.plain());
    assert_eq!(
        (dyn_engine.run(), dyn_engine.run(), plain_engine.run()),
        (1, 2, 1)
    );
}

#[test]
fn the_mode_defaults_to_dyn_and_the_last_field_keeps_its_place() {
    // `Engine` without a parameter is `Engine<Dyn>`.
    let engine: no_trailing_comma::Engine = Default::default();
    assert!(!engine.plain());
    let mut plain = no_trailing_comma::Engine::<sim::Plain>::default();
    (plain.runs, plain.last) = (3, 7);
    assert!(plain.plain());
    assert_eq!((plain.runs, plain.last), (3, 7));
}

mod trait_impl {
    pub trait Named<T> {
        fn name(&self) -> &'static str;
        fn plain(&self) -> bool;
    }

    pub struct Service;

    #[leaselab_macros::engine_mode]
    #[derive(Default)]
    pub struct Engine {}

    #[leaselab_macros::engine_mode]
    impl Named<Service> for Engine {
        fn name(&self) -> &'static str {
            "service"
        }

        fn plain(&self) -> bool {
            M::PLAIN
        }
    }
}

#[test]
fn a_trait_impl_exists_for_every_mode() {
    use trait_impl::{Engine, Named, Service};
    let dyn_engine: Engine = Engine::default();
    let plain: Engine<sim::Plain> = Engine::default();
    assert_eq!(Named::<Service>::name(&dyn_engine), "service");
    assert!(!Named::<Service>::plain(&dyn_engine));
    assert!(Named::<Service>::plain(&plain));
}
