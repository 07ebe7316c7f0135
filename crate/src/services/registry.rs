//! The registry's machinery: from the one list of lock services in `mod.rs`, each service's module
//! (left out of a build without its cargo feature), the services' run state, the facts the engine
//! asks about, and the engine's dispatch to each service's [`super::Serve`]. Static dispatch — a
//! `match` on the scenario's [`crate::scenario::ServiceKind`], no trait objects — for speed and wasm
//! size; a build without a service has neither its module nor its arms nor its state.

/// `registry! { Kind => module::Type; Kind => module::Type if feature = "name"; … }`: one line per
/// service. A line without `if` is the core engine's, which every build has.
macro_rules! registry {
    (@core) => { true };
    (@core $cfg:meta) => { false };
    ($( $kind:ident => $module:ident :: $ty:ident $(if $cfg:meta)? ; )*) => {
        // Public, for what a service offers beyond the engine (the conformance suite's client of a
        // service may take a helper from its home).
        $( $(#[cfg($cfg)])? pub mod $module; )*

        /// Whether `kind` is in the core engine, which every build has (the page's first wasm is
        /// only that).
        pub const fn in_core(kind: ServiceKind) -> bool {
            match kind {
                $( ServiceKind::$kind => registry!(@core $($cfg)?), )*
            }
        }

        /// Whether this build has `kind`'s service (its cargo feature is on, or it is in the core).
        #[allow(unreachable_patterns)]
        pub const fn built_in(kind: ServiceKind) -> bool {
            match kind {
                $( $(#[cfg($cfg)])? ServiceKind::$kind => true, )*
                _ => false,
            }
        }

        /// What the page's diagram draws for `kind`: its service's `DIAGRAM` ([`Diagram`]).
        #[allow(unreachable_patterns)]
        pub const fn diagram(kind: ServiceKind) -> Diagram {
            match kind {
                $( $(#[cfg($cfg)])? ServiceKind::$kind => $module::DIAGRAM, )*
                _ => Diagram::PLAIN,
            }
        }

        /// The services' own state during a run, one field per service in this build.
        #[derive(Default)]
        pub(crate) struct Services {
            $( $(#[cfg($cfg)])? pub $module: <$module::$ty as LockService>::State, )*
            /// The service the engine's last run was on (`None` before its first).
            last: Option<ServiceKind>,
        }

        impl Services {
            /// Resets for a run on `kind` with `clients` clients, keeping the allocations. Only the
            /// states a run can read are reset: its own service's, and the last run's service's if
            /// that was another (whose grants would otherwise reach this run's through
            /// [`Services::grants`]); the others are as a reset left them, or as they were made
            /// (tests/engine_reuse.rs). Resetting every service's state on every run cost the
            /// every-cell sweep 4 % in wasm (issue 18, CHANGELOG.md).
            pub fn reset(&mut self, kind: ServiceKind, clients: usize) {
                if let Some(last) = self.last.replace(kind).filter(|&last| last != kind) {
                    self.reset_one(last, clients);
                }
                self.reset_one(kind, clients);
            }

            #[allow(unreachable_patterns)]
            fn reset_one(&mut self, kind: ServiceKind, clients: usize) {
                match kind {
                    $( $(#[cfg($cfg)])? ServiceKind::$kind =>
                        <$module::$ty as LockService>::reset(&mut self.$module, clients), )*
                    // Not in this build: no run reaches it (`check_built_in`).
                    _ => {}
                }
            }

            /// The grants of a run on `kind` that its service keeps itself ([`LockService::grants`]).
            #[allow(unreachable_patterns)]
            pub fn grants(&self, kind: ServiceKind) -> &[crate::lock::LeaseRecord] {
                match kind {
                    $( $(#[cfg($cfg)])? ServiceKind::$kind =>
                        <$module::$ty as LockService>::grants(&self.$module), )*
                    _ => &[],
                }
            }
        }

        /// The transcript's wording of a service's own events; `None` for events the clients' and
        /// storage's wording covers ([`crate::report::transcript()`]).
        #[allow(unreachable_patterns)]
        pub fn say(sc: &Scenario, e: &TraceEvent) -> Option<Said> {
            let who = sc.client_name(e.client);
            match sc.service.kind {
                $( $(#[cfg($cfg)])? ServiceKind::$kind =>
                    <$module::$ty as LockService>::say(sc, e, who), )*
                _ => None,
            }
        }

        #[cfg_attr(feature = "speed", leaselab_macros::engine_mode)]
        #[allow(unreachable_patterns)]
        impl Engine {
            /// An event of a lock service's own.
            // Out of line, as every handler the run loop calls: see `Engine::handle`.
            #[inline(never)]
            pub(crate) fn on_service_event(&mut self, ctx: &Ctx, ev: Ev) {
                match ctx.service {
                    $( $(#[cfg($cfg)])? ServiceKind::$kind =>
                        <Self as Serve<$module::$ty>>::on_event(self, ctx, ev), )*
                    _ => {}
                }
            }

            /// The client asks for the lock (its acquire step).
            pub(crate) fn send_acquire(&mut self, ctx: &Ctx, c: u8) {
                match ctx.service {
                    $( $(#[cfg($cfg)])? ServiceKind::$kind =>
                        <Self as Serve<$module::$ty>>::acquire(self, ctx, c), )*
                    _ => {}
                }
            }

            /// Value-checked release of what the client was granted with `value`.
            pub(crate) fn send_release(&mut self, ctx: &Ctx, c: u8, value: u64) {
                match ctx.service {
                    $( $(#[cfg($cfg)])? ServiceKind::$kind =>
                        <Self as Serve<$module::$ty>>::release(self, ctx, c, value), )*
                    _ => {}
                }
            }

            /// The client the ideal guard lets write ([`Serve::rightful`]).
            pub(crate) fn rightful(&self, ctx: &Ctx) -> Option<u8> {
                match ctx.service {
                    $( $(#[cfg($cfg)])? ServiceKind::$kind =>
                        <Self as Serve<$module::$ty>>::rightful(self, ctx), )*
                    _ => None,
                }
            }

            /// The client has just frozen for `d` (a script's pause).
            pub(crate) fn on_pause(&mut self, ctx: &Ctx, c: u8, d: u64) {
                match ctx.service {
                    $( $(#[cfg($cfg)])? ServiceKind::$kind =>
                        <Self as Serve<$module::$ty>>::on_pause(self, ctx, c, d), )*
                    _ => {}
                }
            }

            /// The client has just been cut off from the service for `d` ([`Serve::on_cut`]).
            pub(crate) fn on_cut(&mut self, ctx: &Ctx, c: u8, d: u64) {
                match ctx.service {
                    $( $(#[cfg($cfg)])? ServiceKind::$kind =>
                        <Self as Serve<$module::$ty>>::on_cut(self, ctx, c, d), )*
                    _ => {}
                }
            }

            /// The client's script is over.
            pub(crate) fn on_script_end(&mut self, ctx: &Ctx, c: u8) {
                match ctx.service {
                    $( $(#[cfg($cfg)])? ServiceKind::$kind =>
                        <Self as Serve<$module::$ty>>::on_script_end(self, ctx, c), )*
                    _ => {}
                }
            }

            /// An admin ends the client's session or connection ([`Serve::on_terminate`]).
            pub(crate) fn on_terminate(&mut self, ctx: &Ctx, c: u8) {
                match ctx.service {
                    $( $(#[cfg($cfg)])? ServiceKind::$kind =>
                        <Self as Serve<$module::$ty>>::on_terminate(self, ctx, c), )*
                    _ => {}
                }
            }

            /// Whether the service refuses the client's request without reaching the lock.
            pub(crate) fn refuses_request(&self, ctx: &Ctx, c: u8) -> bool {
                match ctx.service {
                    $( $(#[cfg($cfg)])? ServiceKind::$kind =>
                        <Self as Serve<$module::$ty>>::refuses_request(self, ctx, c), )*
                    _ => false,
                }
            }
        }
    };
}
