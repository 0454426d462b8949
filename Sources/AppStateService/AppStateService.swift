import CSystemd
import StateContainers
import AppStateIPC
