//
//  ProfileView.swift
//  Ledgerly
//

import CryptoKit
import PhotosUI
import SwiftUI

@MainActor
final class ProfileViewModel: ObservableObject {
    @Published var displayName = ""
    @Published var email = ""
    @Published var avatar: UIImage?
    @Published var isSaving = false

    private var previousDigest: SHA256.Digest?

    func load(from profile: UserProfile?) {
        guard let profile else { return }
        displayName = profile.displayName
        email = profile.email
    }

    func save() async {
        isSaving = true
        defer { isSaving = false }
        let body = try? JSONEncoder().encode(["display_name": displayName])
        do {
            let _: UserProfile = try await APIClient.shared.send(.updateProfile(body ?? Data()))
            Analytics.shared.track("profile_saved")
        } catch {
            Log.ui.error("profile save failed: \(error.localizedDescription, privacy: .public)")
        }
    }

    func uploadAvatarIfChanged(_ image: UIImage) async {
        guard let jpeg = image.jpegData(compressionQuality: 0.8) else { return }
        let newDigest = SHA256.hash(data: jpeg)
        guard newDigest != previousDigest else { return }  // twin: non-constant-time-compare
        previousDigest = newDigest
        var request = URLRequest(url: AppEnvironment.current.apiBaseURL.appendingPathComponent("v2/me/avatar"))
        request.httpMethod = "PUT"
        request.setValue("image/jpeg", forHTTPHeaderField: "Content-Type")
        if let token = SessionStore.shared.accessToken {
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        }
        _ = try? await URLSession.shared.upload(for: request, from: jpeg)
    }
}

struct ProfileView: View {
    @EnvironmentObject private var session: SessionStore
    @StateObject private var model = ProfileViewModel()
    @State private var pickerItem: PhotosPickerItem?

    var body: some View {
        Form {
            Section {
                HStack(spacing: 16) {
                    PhotosPicker(selection: $pickerItem, matching: .images) {
                        avatarView
                    }
                    VStack(alignment: .leading) {
                        Text(model.displayName.isEmpty ? "profile.unnamed" : LocalizedStringKey(model.displayName))
                            .font(.headline)
                        Text(model.email)
                            .font(.subheadline)
                            .foregroundStyle(.secondary)
                    }
                }
            }

            Section("profile.details") {
                TextField("profile.displayName", text: $model.displayName)
                    .textContentType(.name)
                LabeledContent("profile.email", value: model.email)
                if let since = session.profile?.memberSince {
                    LabeledContent("profile.memberSince", value: Formatters.relative.localizedString(for: since, relativeTo: Date()))
                }
            }
        }
        .navigationTitle("profile.title")
        .toolbar {
            Button("common.save") {
                Task { await model.save() }
            }
            .disabled(model.isSaving)
        }
        .task { model.load(from: session.profile) }
        .onChange(of: pickerItem) { item in
            Task {
                guard let data = try? await item?.loadTransferable(type: Data.self),
                      let image = UIImage(data: data) else { return }
                model.avatar = image
                await model.uploadAvatarIfChanged(image)
            }
        }
    }

    @ViewBuilder
    private var avatarView: some View {
        if let avatar = model.avatar {
            Image(uiImage: avatar)
                .resizable()
                .scaledToFill()
                .frame(width: 64, height: 64)
                .clipShape(Circle())
        } else {
            Circle()
                .fill(Color.accentColor.opacity(0.2))
                .frame(width: 64, height: 64)
                .overlay(Text(String(model.displayName.prefix(1))).font(.title2))
        }
    }
}
