import AppStateCore
import AppStateIPC
import StateContainers

/// The operations of the `io.appstate` interface on the hosted trees. Each mutation
/// returns the ``Event`` that watchers are sent; every failure is a declared error and
/// leaves the tree as it was.
extension TreeHost {
    func logIn(_ parameters: Login.Parameters) throws(VarlinkError) -> (Login.Reply, Event?) {
        let tree = try tree(named: parameters.tree)
        let login = try tree.container(LoginStateController.self, at: nil)
        do {
            try login.logIn(user: parameters.user, switching: parameters.switching)
        } catch let error as ContainmentError where error == .alreadyLoggedIn {
            throw .alreadyLoggedIn(user: login.session?.user ?? "")
        } catch {
            throw .invalidValue(parameter: "user", reason: "\(error)")
        }
        return (PathReply(path: login.shownController.path), event(tree, .login, path: login.path))
    }

    func logOut(_ parameters: Logout.Parameters) throws(VarlinkError) -> (Logout.Reply, Event?) {
        try changeSession(parameters.tree, .logout) { $0.logOut() }
    }

    func lock(_ parameters: Lock.Parameters) throws(VarlinkError) -> (Lock.Reply, Event?) {
        try changeSession(parameters.tree, .lock) { try $0.lock() }
    }

    func unlock(_ parameters: Unlock.Parameters) throws(VarlinkError) -> (Unlock.Reply, Event?) {
        try changeSession(parameters.tree, .unlock) { try $0.unlock() }
    }

    /// Logs out, locks or unlocks the tree's login-state container: an event only when
    /// something changed.
    private func changeSession(
        _ treeName: String?, _ method: AppStateMethod, _ change: (LoginStateController) throws -> Bool
    ) throws(VarlinkError) -> (Logout.Reply, Event?) {
        let tree = try tree(named: treeName)
        let login = try tree.container(LoginStateController.self, at: nil)
        let changed: Bool
        do {
            changed = try change(login)
        } catch {
            throw VarlinkError(containment: error, path: login.path)
        }
        return (Logout.Reply(changed: changed, path: login.shownController.path), changed ? event(tree, method, path: login.path) : nil)
    }

    func post(_ parameters: Post.Parameters) throws(VarlinkError) -> (Post.Reply, Event?) {
        let tree = try tree(named: parameters.tree)
        if let problem = PrintableName.problem(with: parameters.name) {
            throw .invalidValue(parameter: "name", reason: problem)
        }
        let userInfo = parameters.userInfo ?? [:]
        // A notification has no caller to answer, so the login container can only ignore a
        // bad one: the session notification's user is checked here, by the model's rule,
        // so that the client that posted it is told.
        if parameters.name == NotificationName.sessionDidLogIn.rawValue {
            guard case .string(let user)? = userInfo["user"] else {
                throw .invalidValue(parameter: "userInfo.user", reason: "\(parameters.name) needs the user name as a string")
            }
            do {
                try Session.validate(user: user)
            } catch {
                throw .invalidValue(parameter: "userInfo.user", reason: error.description)
            }
        }
        tree.window.bus.post(name: NotificationName(rawValue: parameters.name), userInfo: userInfo)
        return (Post.Reply(), event(tree, named: parameters.name, path: nil, userInfo: userInfo))
    }

    func showKeyboard(_ parameters: ShowKeyboard.Parameters) throws(VarlinkError) -> (ShowKeyboard.Reply, Event?) {
        let tree = try tree(named: parameters.tree)
        let size = tree.window.size
        guard parameters.height >= 0, parameters.height <= size.height else {
            throw .invalidValue(parameter: "height", reason: "must be between 0 and the window height \(size.height)")
        }
        let duration = parameters.duration ?? AppStateLimits.defaultAnimationDuration
        let hidden = Rect(x: 0, y: size.height, width: size.width, height: parameters.height)
        let begin = tree.keyboardFrame ?? hidden
        let end = Rect(x: 0, y: size.height - parameters.height, width: size.width, height: parameters.height)
        if tree.keyboardFrame == nil {
            tree.window.bus.post(KeyboardWillShow(frameBegin: begin, frameEnd: end, duration: duration, curve: .easeInOut))
            tree.keyboardFrame = end
            tree.window.bus.post(KeyboardDidShow(frameBegin: begin, frameEnd: end, duration: duration, curve: .easeInOut))
        } else {
            tree.window.bus.post(KeyboardWillChangeFrame(frameBegin: begin, frameEnd: end, duration: duration, curve: .easeInOut))
            tree.keyboardFrame = end
        }
        return (ShowKeyboard.Reply(), event(tree, .showKeyboard, path: nil))
    }

    func hideKeyboard(_ parameters: HideKeyboard.Parameters) throws(VarlinkError) -> (HideKeyboard.Reply, Event?) {
        let tree = try tree(named: parameters.tree)
        let duration = parameters.duration ?? AppStateLimits.defaultAnimationDuration
        guard let begin = tree.keyboardFrame else { return (HideKeyboard.Reply(), nil) }
        let end = begin.offsetBy(dx: 0, dy: tree.window.size.height - begin.minY)
        tree.window.bus.post(KeyboardWillHide(frameBegin: begin, frameEnd: end, duration: duration, curve: .easeInOut))
        tree.keyboardFrame = nil
        tree.window.bus.post(KeyboardDidHide(frameBegin: begin, frameEnd: end, duration: duration, curve: .easeInOut))
        return (HideKeyboard.Reply(), event(tree, .hideKeyboard, path: nil))
    }

    func setPage(_ parameters: SetPage.Parameters) throws(VarlinkError) -> (SetPage.Reply, Event?) {
        let tree = try tree(named: parameters.tree)
        let pages = try tree.container(PaginatedController.self, at: parameters.path)
        // A step near Int.max or Int.min must not trap on the sum.
        if case .step(let step) = parameters.target, pages.currentIndex.addingReportingOverflow(step).overflow {
            throw .outOfRange(path: pages.path, index: step > 0 ? .max : .min, count: pages.pages.count)
        }
        do {
            switch parameters.target {
            case .index(let index): try pages.setPage(index, animated: false)
            case .id(let id): try pages.setPage(identifier: id, animated: false)
            case .step(let step): try pages.setPage(pages.currentIndex + step, animated: false)
            }
        } catch let error as ContainmentError where error == .noSuchChild {
            if case .id(let id) = parameters.target { throw .noSuchChild(path: pages.path, id: id) }
            throw .noSuchChild(path: pages.path, id: "")
        } catch let error as ContainmentError where error == .outOfRange {
            let index =
                switch parameters.target {
                case .index(let index): index
                case .step(let step): pages.currentIndex + step
                case .id: -1
                }
            throw .outOfRange(path: pages.path, index: index, count: pages.pages.count)
        } catch {
            throw VarlinkError(containment: error, path: pages.path)
        }
        let reply = SetPage.Reply(index: pages.currentIndex, path: pages.currentPage.path)
        return (reply, event(tree, .setPage, path: pages.path))
    }

    func selectMenuItem(_ parameters: SelectMenuItem.Parameters) throws(VarlinkError) -> (PathReply, Event?) {
        let tree = try tree(named: parameters.tree)
        let menu = try tree.container(MenuController.self, at: parameters.path)
        do {
            try menu.select(identifier: parameters.id)
        } catch let error as ContainmentError where error == .noSuchChild {
            throw .noSuchChild(path: menu.path, id: parameters.id)
        } catch {
            throw VarlinkError(containment: error, path: menu.path)
        }
        return (PathReply(path: menu.activeViewController?.path ?? menu.path), event(tree, .selectMenuItem, path: menu.path))
    }

    func push(_ parameters: Push.Parameters) throws(VarlinkError) -> (PathReply, Event?) {
        let tree = try tree(named: parameters.tree)
        let navigation = try tree.container(NavigationController.self, at: parameters.path)
        do {
            try navigation.push(identifier: parameters.id, animated: false)
        } catch let error as ContainmentError where error == .noSuchChild {
            throw .noSuchChild(path: navigation.path, id: parameters.id)
        } catch {
            throw VarlinkError(containment: error, path: navigation.path)
        }
        return (PathReply(path: navigation.top.path), event(tree, .push, path: navigation.path))
    }

    func pop(_ parameters: Pop.Parameters) throws(VarlinkError) -> (PathReply, Event?) {
        let tree = try tree(named: parameters.tree)
        let navigation = try tree.container(NavigationController.self, at: parameters.path)
        guard navigation.pop(animated: false) != nil else {
            throw .invalidTransition(path: navigation.path, reason: "the root of a navigation stack cannot be popped")
        }
        return (PathReply(path: navigation.top.path), event(tree, .pop, path: navigation.path))
    }

    func resize(_ parameters: Resize.Parameters) throws(VarlinkError) -> (Resize.Reply, Event?) {
        let tree = try tree(named: parameters.tree)
        tree.window.resize(to: Size(width: parameters.width, height: parameters.height))
        return (Resize.Reply(), event(tree, .resize, path: nil))
    }

    /// The event of a method's change: named after the method, as the interface says.
    func event(_ tree: HostedTree, _ method: AppStateMethod, path: String?) -> Event {
        event(tree, named: method.shortName, path: path)
    }

    private func event(_ tree: HostedTree, named name: String, path: String?, userInfo: [String: JSONValue]? = nil) -> Event {
        Event(tree: tree.name, name: name, path: path, current: tree.deepestCurrentPath, userInfo: userInfo)
    }
}
